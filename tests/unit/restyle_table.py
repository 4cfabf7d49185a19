# ruff: noqa: E501  (a table of whole sentences, one case per line)
"""A table of rewrites of accepted questions in query styles, good and defective, in English, German, French and
Spanish.

Written from real text: section titles and facts of the PostgreSQL 15 manual (the demo corpus) and of the
Debian Reference in its German, French and Spanish translations (tests/data/manuals). A good rewrite is one a
careful reader accepts as the same question in the style: the deterministic check must pass it. A defective
one changes the meaning (a number, a title or a compared entity lost or changed, a constraint added), gives
the answer away, refers to the material, names a hidden entity, asks a second question, or is not in its
style; the check must refuse it with the rule given. `scripts/restyle_table.py` prints the counts;
test_restyle_lint.py holds every case to its verdict.
"""

from __future__ import annotations

from dataclasses import dataclass

from nodes.lint.restyle import restyle_problems


@dataclass(frozen=True)
class Rewrite:
    language: str
    style: str
    canonical: str
    restyled: str
    answer: str
    rule: str | None = None
    """The rule a defective rewrite breaks; None for a good one."""
    question_type: str = "intersection"
    binary: bool = False
    compared: tuple[str, ...] = ()
    hidden: tuple[str, ...] = ()
    turns: tuple[str, ...] = ()
    """Style follow-up: the user's opening turn and the assistant's reply before `restyled`."""

    @property
    def defective(self) -> bool:
        return self.rule is not None

    def rules(self) -> set[str]:
        """The rules the deterministic check finds broken."""
        construction = {
            "compared_entities": list(self.compared),
            "hidden_entities": [{"entity": entity, "chunk_id": ""} for entity in self.hidden],
        }
        findings = restyle_problems(
            self.canonical,
            self.restyled,
            self.style,
            answer=self.answer,
            binary=self.binary,
            question_type=self.question_type,
            construction=construction,  # type: ignore[arg-type]
            language=self.language,
            turns=self.turns,
        )
        return {rule for rule, _ in findings}


_VACUUM = "How often should autovacuum run ANALYZE on a table that receives 10000 updates per day in PostgreSQL 15?"
_WAL = 'Which setting in "WAL Configuration" limits the size of WAL files kept before a checkpoint in PostgreSQL 15?'
_COMPARE = 'Which comes earlier in the PostgreSQL 15 manual, "Routine Vacuuming" or "Backup and Restore"?'
_PGDUMP = "Which option of pg_dump writes the archive in the directory format used by parallel restores?"
_LOCKS = 'Does "pg_locks" show the locks held by prepared transactions in PostgreSQL 15?'
_COMPOSE = 'What is the default port of the server that "pg_hba.conf" authenticates clients for?'
_DE_APT = 'Welcher Befehl aus "Debian-Paketmanagement" aktualisiert die Paketliste vor einem Upgrade?'
_DE_SHELL = "Mit welcher Tastenkombination kehrt man in Debian 11 von der Konsole tty3 zur GUI zurück?"
_DE_COMPARE = 'Was steht in der Debian-Referenz weiter vorn, "Das equivs-Paket" oder "Virtuelle Konsolen"?'
_FR_APT = "Quel fichier de l’archive Debian contient les sommes de contrôle des fichiers « Packages » ?"
_FR_MC = "Quelle touche de MC ouvre le menu de configuration dans la version 4.8 ?"
_FR_PROXY = "Quel paquet sert de serveur mandataire pour APT dans la section 2.7.14 ?"
_ES_RELEASE = "¿Qué archivo del nivel superior de Debian contiene la firma «Release.gpg»?"
_ES_MC = "¿Qué tecla abre el menú de MC en el gestor de archivos de la versión 4.8?"
_ES_UPDATES = "¿Con qué frecuencia publica Debian 11 actualizaciones de seguridad para el paquete apt?"

REWRITES: tuple[Rewrite, ...] = (
    # -- good: the same question in the style ---------------------------------------------------------
    Rewrite("en", "keyword", _VACUUM, "autovacuum ANALYZE frequency 10000 updates per day PostgreSQL 15", "daily"),
    Rewrite("en", "short", _VACUUM, "How often autovacuum ANALYZE, 10000 updates/day, PostgreSQL 15?", "daily"),
    Rewrite(
        "en",
        "verbose",
        _VACUUM,
        "Our orders table gets a lot of writes and queries got slow last week. How often should autovacuum run "
        "ANALYZE on a table that receives 10000 updates per day in PostgreSQL 15?",
        "daily",
    ),
    Rewrite(
        "en",
        "misspelled",
        _VACUUM,
        "How often shuold autovacum run ANALYZE on a table that recieves 10000 updates per day in PostgreSQL 15?",
        "daily",
    ),
    Rewrite(
        "en",
        "poor-grammar",
        _VACUUM,
        "how often autovacuum should running ANALYZE on table which receive 10000 updates per day in PostgreSQL 15",
        "daily",
    ),
    Rewrite(
        "en",
        "keyword",
        _WAL,
        '"WAL Configuration" setting limit WAL files size before checkpoint PostgreSQL 15',
        "max_wal_size",
    ),
    Rewrite(
        "en",
        "short",
        _WAL,
        'PostgreSQL 15: which "WAL Configuration" setting caps WAL kept before a checkpoint?',
        "max_wal_size",
    ),
    Rewrite(
        "en",
        "keyword",
        _COMPARE,
        'PostgreSQL 15 manual "Routine Vacuuming" vs "Backup and Restore" which first',
        "Routine Vacuuming",
        question_type="comparison",
        compared=("Routine Vacuuming", "Backup and Restore"),
    ),
    Rewrite(
        "en",
        "misspelled",
        _COMPARE,
        'Which comes erlier in the PostgreSQL 15 manual, "Routine Vacuming" or "Backup and Restore"?',
        "Routine Vacuuming",
        question_type="comparison",
        compared=("Routine Vacuuming", "Backup and Restore"),
    ),
    Rewrite("en", "keyword", _PGDUMP, "pg_dump option directory format archive parallel restore", "-Fd"),
    Rewrite(
        "en",
        "poor-grammar",
        _PGDUMP,
        "which pg_dump option is write archive in directory format for parallel restore?",
        "-Fd",
    ),
    Rewrite(
        "en",
        "short",
        _LOCKS,
        'Does "pg_locks" show prepared transactions\' locks in PostgreSQL 15?',
        "Yes",
        binary=True,
    ),
    Rewrite(
        "en",
        "verbose",
        _LOCKS,
        'I am chasing a lock that nobody seems to hold. Does "pg_locks" show the locks held by prepared transactions in PostgreSQL 15?',
        "Yes",
        binary=True,
    ),
    Rewrite(
        "en",
        "keyword",
        _COMPOSE,
        '"pg_hba.conf" server default port',
        "5432",
        question_type="composition",
        hidden=("PostgreSQL server",),
    ),
    Rewrite(
        "de", "keyword", _DE_APT, '"Debian-Paketmanagement" Befehl Paketliste aktualisieren vor Upgrade', "apt update"
    ),
    Rewrite(
        "de", "short", _DE_APT, 'Welcher Befehl aus "Debian-Paketmanagement" aktualisiert die Paketliste?', "apt update"
    ),
    Rewrite(
        "de",
        "misspelled",
        _DE_APT,
        'Welcher Befehl aus "Debian-Paketmanagement" aktualisiert die Paketlsite vor einem Upgarde?',
        "apt update",
    ),
    Rewrite(
        "de",
        "poor-grammar",
        _DE_SHELL,
        "Mit welche Tastenkombination man kehrt in Debian 11 von Konsole tty3 zur GUI zurück?",
        "Strg-Alt-F2",
    ),
    Rewrite(
        "de",
        "verbose",
        _DE_SHELL,
        "Ich habe mich an der Textkonsole angemeldet und finde nicht zurück. Mit welcher Tastenkombination kehrt man in Debian 11 von der Konsole tty3 zur GUI zurück?",
        "Strg-Alt-F2",
    ),
    Rewrite(
        "de",
        "misspelled",
        _DE_SHELL,
        "Mit welcher Tastenkombination kehrt man in Debian 11 von der Konsole tty3 zur GUI zuruck?",
        "Strg-Alt-F2",
    ),
    Rewrite(
        "de",
        "keyword",
        _DE_COMPARE,
        'Debian-Referenz "Das equivs-Paket" "Virtuelle Konsolen" Reihenfolge',
        "Virtuelle Konsolen",
        question_type="comparison",
        compared=("Das equivs-Paket", "Virtuelle Konsolen"),
    ),
    Rewrite("fr", "keyword", _FR_APT, "archive Debian fichier sommes de contrôle « Packages »", "Release"),
    Rewrite(
        "fr",
        "misspelled",
        _FR_APT,
        "Quel fichier de l’archive Debian contient les sommes de controle des fichiers « Packages » ?",
        "Release",
    ),
    Rewrite("fr", "poor-grammar", _FR_MC, "Quelle touche MC ouvrir menu de configuration dans version 4.8 ?", "F9"),
    Rewrite("fr", "short", _FR_MC, "Touche de MC pour le menu de configuration en 4.8 ?", "F9"),
    Rewrite(
        "fr",
        "verbose",
        _FR_PROXY,
        "Je monte un cache pour les machines du labo. Quel paquet sert de serveur mandataire pour APT dans la section 2.7.14 ?",
        "apt-cacher-ng",
    ),
    Rewrite("fr", "keyword", _FR_PROXY, "paquet serveur mandataire APT section 2.7.14", "apt-cacher-ng"),
    Rewrite("es", "keyword", _ES_RELEASE, "archivo nivel superior Debian firma «Release.gpg»", "Release"),
    Rewrite(
        "es",
        "misspelled",
        _ES_RELEASE,
        "¿Que archivo del nivel superor de Debian contiene la firma «Release.gpg»?",
        "Release",
    ),
    Rewrite("es", "short", _ES_MC, "¿Tecla del menú de MC en la versión 4.8?", "F9"),
    Rewrite("es", "poor-grammar", _ES_MC, "¿Qué tecla abrir menú de MC en gestor de archivos de versión 4.8?", "F9"),
    Rewrite(
        "es",
        "verbose",
        _ES_UPDATES,
        "Mantengo unos servidores y quiero planificar los reinicios. ¿Con qué frecuencia publica Debian 11 actualizaciones de seguridad para el paquete apt?",
        "semanalmente",
    ),
    Rewrite(
        "es",
        "misspelled",
        _ES_UPDATES,
        "¿Con que frecuencia publica Debian 11 actualizaciones de seguridd para el paquete apt?",
        "semanalmente",
    ),
    Rewrite(
        "en",
        "verbose",
        _PGDUMP,
        "We restore a 2 TB database every weekend and it takes hours. Which option of pg_dump writes the archive in the directory format used by parallel restores?",
        "-Fd",
    ),
    Rewrite("de", "short", _DE_SHELL, "Debian 11: Tasten von tty3 zurück zur GUI?", "Strg-Alt-F2"),
    Rewrite(
        "fr", "misspelled", _FR_MC, "Quelle touche de MC ouvre le menu de configuartion dans la version 4.8 ?", "F9"
    ),
    Rewrite(
        "en",
        "follow-up",
        _PGDUMP,
        "Which of its options writes the directory format used by parallel restores?",
        "-Fd",
        turns=("I am looking at pg_dump and the archive it writes.", "Sure, what would you like to know?"),
    ),
    Rewrite(
        "de",
        "follow-up",
        _DE_SHELL,
        "Mit welcher Tastenkombination komme ich von dort zur GUI zurück?",
        "Strg-Alt-F2",
        turns=("Ich bin in Debian 11 an der Konsole tty3 angemeldet.", "Verstanden, was möchten Sie wissen?"),
    ),
    Rewrite(
        "fr",
        "follow-up",
        _FR_PROXY,
        "Quel paquet sert de serveur mandataire pour APT dans cette section ?",
        "apt-cacher-ng",
        turns=("Je lis la section 2.7.14 de la référence Debian.", "D'accord, que voulez-vous savoir ?"),
    ),
    Rewrite(
        "es",
        "follow-up",
        _ES_RELEASE,
        "¿Qué archivo del nivel superior la contiene?",
        "Release",
        turns=("Tengo una duda sobre la firma «Release.gpg» de Debian.", "Claro, ¿qué quiere saber?"),
    ),
    Rewrite(
        "en",
        "misspelled",
        "How long does a pg_dump restore of the orders database take on vault-7?",
        "How long dose a pg_dump restore of the orders databse take on vault 7?",
        "about 40 minutes",
    ),
    Rewrite(
        "en",
        "keyword",
        "What is the second step of the backup procedure on vault-7?",
        "vault-7 backup procedure step 2",
        "stop the writes",
    ),
    Rewrite(
        "en",
        "keyword",
        "How many replicas does the three-node cluster on vault-7 keep?",
        "vault-7 3-node cluster replicas",
        "two",
    ),
    Rewrite(
        "en",
        "verbose",
        "How long does a pg_dump restore of the orders database take on vault-7?",
        "This is urgent for us tonight: how long does a pg_dump restore of the orders database take on vault-7, roughly?",
        "about 40 minutes",
    ),
    Rewrite(
        "en",
        "keyword",
        'Which chapter of the "Backup and Restore Guide" covers pg_dump?',
        "backup restore guide pg_dump chapter",
        "chapter 25",
    ),
    Rewrite(
        "de",
        "verbose",
        _DE_SHELL,
        "Es ist dringend, ich sitze vor dem Rechner: Mit welcher Tastenkombination kehrt man in Debian 11 von der Konsole tty3 zur GUI zurück?",
        "Strg-Alt-F2",
    ),
    Rewrite(
        "es",
        "verbose",
        _ES_MC,
        "Esto es urgente porque tengo que cambiar la configuración hoy. ¿Qué tecla abre el menú de MC en el gestor de archivos de la versión 4.8?",
        "F9",
    ),
    Rewrite(
        "en",
        "follow-up",
        _PGDUMP,
        "Which of its options writes the directory format used by parallel restores?",
        "-Fd",
        turns=("I am looking at pg_dump and the archive it writes.", "Sure, pg_dump - what would you like to know?"),
    ),
    # -- defective: the meaning changed -------------------------------------------------------------
    Rewrite(
        "en",
        "keyword",
        _VACUUM,
        "autovacuum ANALYZE frequency 1000 updates per day PostgreSQL 15",
        "daily",
        "number_dropped",
    ),
    Rewrite(
        "en", "short", _VACUUM, "How often should autovacuum run ANALYZE in PostgreSQL 15?", "daily", "number_dropped"
    ),
    Rewrite(
        "en",
        "misspelled",
        _VACUUM,
        "How often shuold autovacum run ANALYZE on a table that recieves 10000 updates per day in PostgreSQL 14?",
        "daily",
        "number_dropped",
    ),
    Rewrite(
        "en",
        "poor-grammar",
        _WAL,
        "which setting limit size of WAL files before checkpoint in PostgreSQL 15",
        "max_wal_size",
        "term_dropped",
    ),
    Rewrite("en", "keyword", _PGDUMP, "pg_restore option directory format archive parallel", "-Fd", "term_dropped"),
    Rewrite(
        "en",
        "keyword",
        _COMPARE,
        'PostgreSQL 15 manual "Routine Vacuuming" which first',
        "Routine Vacuuming",
        "term_dropped",
        question_type="comparison",
        compared=("Routine Vacuuming", "Backup and Restore"),
    ),
    Rewrite(
        "en",
        "short",
        _LOCKS,
        'Does "pg_locks" show locks of prepared transactions in PostgreSQL 15 since 2022?',
        "Yes",
        "number_added",
        binary=True,
    ),
    Rewrite(
        "de",
        "keyword",
        _DE_SHELL,
        "Tastenkombination Debian 12 Konsole tty3 zurück GUI",
        "Strg-Alt-F2",
        "number_dropped",
    ),
    Rewrite(
        "de",
        "short",
        _DE_COMPARE,
        'Was steht weiter vorn, "Das equivs-Paket" oder der Abschnitt über Konsolen?',
        "Virtuelle Konsolen",
        "term_dropped",
        question_type="comparison",
        compared=("Das equivs-Paket", "Virtuelle Konsolen"),
    ),
    Rewrite(
        "de",
        "poor-grammar",
        _DE_APT,
        "welche Befehl aktualisieren Paketliste vor Upgrade",
        "apt update",
        "term_dropped",
    ),
    Rewrite("fr", "keyword", _FR_PROXY, "paquet serveur mandataire APT", "apt-cacher-ng", "number_dropped"),
    Rewrite("fr", "short", _FR_APT, "Quel fichier Debian contient les sommes de contrôle ?", "Release", "term_dropped"),
    Rewrite(
        "fr",
        "poor-grammar",
        _FR_MC,
        "Quelle touche MC ouvrir menu de configuration dans version 4.9 ?",
        "F9",
        "number_dropped",
    ),
    Rewrite("es", "keyword", _ES_RELEASE, "archivo nivel superior Debian firma", "Release", "term_dropped"),
    Rewrite(
        "es",
        "short",
        _ES_UPDATES,
        "¿Cada cuánto publica Debian actualizaciones de apt?",
        "semanalmente",
        "number_dropped",
    ),
    Rewrite(
        "es",
        "misspelled",
        _ES_MC,
        "¿Que tecla abre el menu de MC en el gestor de archivos de la version 4.6?",
        "F9",
        "number_dropped",
    ),
    # -- defective: the answer given away -----------------------------------------------------------
    Rewrite(
        "en",
        "verbose",
        _WAL,
        'I think it is max_wal_size but want to be sure. Which setting in "WAL Configuration" limits the size of WAL files kept before a checkpoint in PostgreSQL 15?',
        "max_wal_size",
        "answer_in_question",
    ),
    Rewrite(
        "en", "keyword", _PGDUMP, "pg_dump -Fd directory format archive parallel restore", "-Fd", "answer_in_question"
    ),
    Rewrite(
        "de",
        "verbose",
        _DE_APT,
        'Ich tippe immer apt update, stimmt das? Welcher Befehl aus "Debian-Paketmanagement" aktualisiert die Paketliste vor einem Upgrade?',
        "apt update",
        "answer_in_question",
    ),
    Rewrite(
        "fr",
        "short",
        _FR_PROXY,
        "apt-cacher-ng, le paquet mandataire APT de la section 2.7.14 ?",
        "apt-cacher-ng",
        "answer_in_question",
    ),
    Rewrite("es", "keyword", _ES_MC, "tecla F9 menú MC gestor archivos versión 4.8", "F9", "answer_in_question"),
    Rewrite(
        "en",
        "keyword",
        _COMPOSE,
        '"pg_hba.conf" PostgreSQL server default port',
        "5432",
        "hidden_entity",
        question_type="composition",
        hidden=("PostgreSQL server",),
    ),
    Rewrite(
        "de",
        "short",
        _DE_SHELL,
        "Debian 11: zurück von tty3 zur GUI mit Strg-Alt-F2?",
        "Strg-Alt-F2",
        "answer_in_question",
    ),
    # -- defective: a reference to the material -----------------------------------------------------
    Rewrite(
        "en",
        "verbose",
        _VACUUM,
        "According to the provided text, how often should autovacuum run ANALYZE on a table that receives 10000 updates per day in PostgreSQL 15?",
        "daily",
        "meta_reference",
    ),
    Rewrite(
        "en",
        "short",
        _PGDUMP,
        "Which pg_dump option, mentioned in the passage, writes the directory format?",
        "-Fd",
        "meta_reference",
    ),
    Rewrite(
        "de",
        "verbose",
        _DE_SHELL,
        "Laut dem Text: Mit welcher Tastenkombination kehrt man in Debian 11 von der Konsole tty3 zur GUI zurück?",
        "Strg-Alt-F2",
        "meta_reference",
    ),
    Rewrite(
        "fr",
        "verbose",
        _FR_MC,
        "Selon le texte, quelle touche de MC ouvre le menu de configuration dans la version 4.8 ?",
        "F9",
        "meta_reference",
    ),
    Rewrite(
        "es",
        "verbose",
        _ES_UPDATES,
        "Según el texto, ¿con qué frecuencia publica Debian 11 actualizaciones de seguridad para el paquete apt?",
        "semanalmente",
        "meta_reference",
    ),
    Rewrite(
        "en",
        "follow-up",
        _PGDUMP,
        "Which of its options writes the directory format used by parallel restores?",
        "-Fd",
        "assistant_fact",
        turns=(
            "I am looking at pg_dump and the archive it writes.",
            "Sure, it has options like -Fd; what do you need?",
        ),
    ),
    Rewrite(
        "de",
        "follow-up",
        _DE_SHELL,
        "Mit welcher Tastenkombination komme ich von dort zur GUI zurück?",
        "Strg-Alt-F2",
        "number_dropped",
        turns=("Ich bin an der Konsole tty3 angemeldet.", "Verstanden, was möchten Sie wissen?"),
    ),
    Rewrite(
        "fr",
        "follow-up",
        _FR_PROXY,
        "Quel paquet sert de serveur mandataire pour APT dans la section 2.7.14 ?",
        "apt-cacher-ng",
        "follow_up_turns",
    ),
    Rewrite(
        "es",
        "follow-up",
        _ES_RELEASE,
        "¿Y qué archivo del nivel superior de Debian contiene la firma «Release.gpg»?",
        "Release",
        "follow_up_standalone",
        turns=("Tengo una duda sobre Debian.", "Claro, ¿qué quiere saber?"),
    ),
    # -- defective: two questions, not the style, or the question itself ----------------------------
    Rewrite(
        "en",
        "verbose",
        _LOCKS,
        'Does "pg_locks" show the locks held by prepared transactions in PostgreSQL 15? And how do I remove them?',
        "Yes",
        "two_questions",
        binary=True,
    ),
    Rewrite(
        "en",
        "keyword",
        _PGDUMP,
        "Which option of pg_dump writes the archive in the directory format used by parallel restores, please?",
        "-Fd",
        "style_length",
    ),
    Rewrite(
        "en",
        "misspelled",
        _VACUUM,
        "In PostgreSQL 15, what ANALYZE schedule suits a table with 10000 updates per day under autovacuum?",
        "daily",
        "style_misspelled",
    ),
    Rewrite(
        "de",
        "verbose",
        _DE_APT,
        'Welcher Befehl aus "Debian-Paketmanagement" aktualisiert Paketliste?',
        "apt update",
        "style_length",
    ),
    Rewrite("en", "keyword", _PGDUMP, "Which pg_dump option writes the directory format?", "-Fd", "style_keyword"),
    Rewrite("es", "keyword", _ES_MC, "¿Qué tecla abre el menú de MC en la versión 4.8?", "F9", "style_keyword"),
    Rewrite(
        "fr",
        "keyword",
        _FR_APT,
        "Quel fichier de l’archive Debian contient les sommes de contrôle des fichiers « Packages » ?",
        "Release",
        "unchanged",
    ),
    Rewrite(
        "es",
        "poor-grammar",
        _ES_RELEASE,
        "¿qué archivo del nivel superior de Debian contiene la firma «Release.gpg»",
        "Release",
        "unchanged",
    ),
)


def good() -> list[Rewrite]:
    return [case for case in REWRITES if not case.defective]


def defective() -> list[Rewrite]:
    return [case for case in REWRITES if case.defective]
