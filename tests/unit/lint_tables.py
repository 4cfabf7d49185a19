"""Tables of good and defective drafts, one per family of lint rules, in English, German, French and Spanish.

Written from real text: the PostgreSQL 15 manual (the demo corpus) and the Debian Reference in its German,
French and Spanish translations (tests/data/manuals). A good case is a draft a careful reader accepts: the
family's rules must pass it. A defective case breaks the family's concept: its rules must refuse it.
`scripts/lint_tables.py` prints the false refusals and misses per family and language; test_lint_families.py
holds every case to its verdict.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from nodes.lint.question import lint_problems


@dataclass(frozen=True)
class Case:
    language: str
    question: str
    answer: str
    defective: bool
    question_type: str = "intersection"
    binary: bool = False
    compared: tuple[str, ...] = ()
    hidden: tuple[str, ...] = ()
    hops: int = 2
    chunks: tuple[str, ...] = ()
    quotes: tuple[tuple[int, str], ...] = ()
    """The draft's evidence: (index of the supporting chunk in `chunks`, quote); none for a draft of another family."""


@dataclass(frozen=True)
class Family:
    rules: frozenset[str]
    """The lint rules that speak for the family: a defective case must fail one of them, a good case none."""
    cases: tuple[Case, ...] = field(default_factory=tuple)


def _family(rules: set[str], *groups: list[Case]) -> Family:
    return Family(frozenset(rules), tuple(case for group in groups for case in group))


def _extended(family: Family, *cases: Case) -> Family:
    return Family(family.rules, family.cases + cases)


def _cases(language: str, defective: bool, rows: list[tuple[str, str]], **fixed: object) -> list[Case]:
    return [Case(language, question, answer, defective, **fixed) for question, answer in rows]  # type: ignore[arg-type]


# -- two questions in one -----------------------------------------------------------------------
TWO_QUESTIONS = _family(
    {"two_questions"},
    _cases(
        "en",
        False,
        [
            (
                "Which configuration parameter controls both the size of the WAL buffers and when they are flushed?",
                "wal_buffers",
            ),
            (
                "Which table-level storage parameter overrides autovacuum_vacuum_threshold and also applies to TOAST "
                "tables?",
                "toast.autovacuum_vacuum_threshold",
            ),
            (
                "Which process, started by the postmaster and woken every autovacuum_naptime seconds, launches the "
                "vacuum workers?",
                "the autovacuum launcher",
            ),
            ("Which command both reclaims storage and updates the statistics used by the planner?", "VACUUM ANALYZE"),
            (
                "In which year was the release that introduced both pg_basebackup and streaming replication published?",
                "2010",
            ),
            (
                "Which setting decides how long the checkpointer waits and how much WAL it may write before a "
                "checkpoint?",
                "checkpoint_timeout",
            ),
            (
                "What is the default of the parameter that limits how many autovacuum workers run and when they start?",
                "3",
            ),
            (
                "Who maintains the Debian package that provides both the postgres server and its client tools?",
                "the PostgreSQL Debian group",
            ),
            (
                "Which lock does VACUUM FULL take when it rewrites a table and its indexes?",
                "ACCESS EXCLUSIVE",
            ),
        ],
    ),
    _cases(
        "en",
        True,
        [
            ("Which setting controls the size of the WAL buffers, and what is its default?", "wal_buffers"),
            ("Which setting controls the size of the WAL buffers and what is its default value?", "wal_buffers"),
            ("Who wrote the autovacuum daemon? And when was it added to PostgreSQL?", "Alvaro Herrera"),
            ("Which command reclaims dead tuples; what lock does it take?", "VACUUM"),
            (
                "Which parameter sets the naptime of the launcher, and in which release was it introduced?",
                "autovacuum_naptime",
            ),
            ("Which release added pg_basebackup, and by whom?", "9.1"),
            ("Which view shows the progress of VACUUM and how often is it updated?", "pg_stat_progress_vacuum"),
            ("What does wal_level control, and how many values can it take?", "the amount of WAL written"),
            (
                "Which server process writes dirty buffers to disk? Which parameter sets its delay?",
                "the background writer",
            ),
        ],
    ),
    _cases(
        "de",
        False,
        [
            ("Welches Paket stellt sowohl den Befehl apt-get als auch die Bibliothek libapt bereit?", "apt"),
            ("Welcher Befehl zeigt an, welche Pakete installiert sind und wann sie aktualisiert wurden?", "dpkg -l"),
            (
                "Welche Datei bestimmt, aus welchen Paketquellen APT Pakete holt und wie sie priorisiert werden?",
                "/etc/apt/sources.list",
            ),
            ("In welchem Verzeichnis liegen die Pseudo-Dateisysteme procfs und sysfs eingebunden?", "/proc"),
            ("Welches Werkzeug, das in Debian enthalten ist und auf dpkg aufbaut, löst Abhängigkeiten auf?", "apt"),
            (
                "Welcher Dienst startet beim Booten sowohl die Netzwerkschnittstellen als auch den SSH-Server?",
                "systemd",
            ),
            (
                "Wie heißt die Datei, in der steht, welche Dateisysteme beim Start eingebunden werden und wo?",
                "/etc/fstab",
            ),
            (
                "Welche Sektion des Debian-Archivs enthält Pakete, die frei sind und von unfreier Software abhängen?",
                "contrib",
            ),
        ],
    ),
    _cases(
        "de",
        True,
        [
            ("Welches Paket stellt apt-get bereit, und wann wurde es zuerst veröffentlicht?", "apt"),
            ("Welches Paket stellt apt-get bereit und wann wurde es zuerst veröffentlicht?", "apt"),
            ("Wer betreut das Paket dpkg? Und wann erschien seine erste Version?", "das dpkg-Team"),
            ("Welche Datei listet die Paketquellen auf; welches Format hat sie?", "/etc/apt/sources.list"),
            ("Welcher Befehl bindet ein Dateisystem ein, und in welchem Paket ist er enthalten?", "mount"),
            ("Welche Sektion enthält unfreie Software, und von wem wird sie gepflegt?", "non-free"),
            ("Welches Programm ersetzt sysvinit, und von wem?", "systemd"),
            ("Welcher Dienst startet den SSH-Server und wie viele Prozesse hat er?", "systemd"),
        ],
    ),
    _cases(
        "fr",
        False,
        [
            ("Quel paquet fournit à la fois la commande apt-get et la bibliothèque libapt ?", "apt"),
            ("Quelle commande indique quels paquets sont installés et quand ils ont été mis à jour ?", "dpkg -l"),
            (
                "Quel fichier détermine les sources de paquets qu'utilise APT et la façon dont elles sont classées ?",
                "/etc/apt/sources.list",
            ),
            ("Dans quel répertoire le pseudo-système de fichiers procfs est-il monté ?", "/proc"),
            ("Quel outil, fourni par Debian et construit sur dpkg, résout les dépendances ?", "apt"),
            (
                "Quelle section de l'archive Debian contient des paquets libres dépendant de logiciels non libres ?",
                "contrib",
            ),
            (
                "Quel fichier précise quels systèmes de fichiers sont montés au démarrage et où ils le sont ?",
                "/etc/fstab",
            ),
            ("Quel service démarre à la fois les interfaces réseau et le serveur SSH ?", "systemd"),
        ],
    ),
    _cases(
        "fr",
        True,
        [
            ("Quel paquet fournit apt-get, et quand a-t-il été publié pour la première fois ?", "apt"),
            ("Quel paquet fournit apt-get et quand a-t-il été publié ?", "apt"),
            ("Qui maintient le paquet dpkg ? Et quand sa première version est-elle parue ?", "l'équipe dpkg"),
            ("Quel fichier liste les sources de paquets ; quel est son format ?", "/etc/apt/sources.list"),
            ("Quelle commande monte un système de fichiers, et dans quel paquet se trouve-t-elle ?", "mount"),
            ("Quel programme a remplacé sysvinit, et par qui ?", "systemd"),
            ("Quelle section contient les logiciels non libres et quelle est sa taille ?", "non-free"),
            ("Quel service démarre le serveur SSH, et combien de processus lance-t-il ?", "systemd"),
        ],
    ),
    _cases(
        "es",
        False,
        [
            ("¿Qué paquete proporciona tanto la orden apt-get como la biblioteca libapt?", "apt"),
            ("¿Qué orden muestra qué paquetes están instalados y cuándo se actualizaron?", "dpkg -l"),
            (
                "¿Qué archivo determina de qué repositorios obtiene APT los paquetes y cómo se priorizan?",
                "/etc/apt/sources.list",
            ),
            ("¿En qué directorio se monta el pseudo sistema de archivos procfs?", "/proc"),
            ("¿Qué herramienta, incluida en Debian y basada en dpkg, resuelve las dependencias?", "apt"),
            (
                "¿Qué sección del archivo de Debian contiene paquetes libres que dependen de software no libre?",
                "contrib",
            ),
            ("¿Qué archivo indica qué sistemas de archivos se montan al arrancar y dónde?", "/etc/fstab"),
            ("¿Qué servicio inicia tanto las interfaces de red como el servidor SSH?", "systemd"),
        ],
    ),
    _cases(
        "es",
        True,
        [
            ("¿Qué paquete proporciona apt-get, y cuándo se publicó por primera vez?", "apt"),
            ("¿Qué paquete proporciona apt-get y cuándo fue publicado por primera vez?", "apt"),
            ("¿Quién mantiene el paquete dpkg? ¿Y cuándo apareció su primera versión?", "el equipo de dpkg"),
            ("¿Qué archivo enumera los repositorios; qué formato tiene?", "/etc/apt/sources.list"),
            ("¿Qué orden monta un sistema de archivos, y en qué paquete está?", "mount"),
            ("¿Qué programa sustituyó a sysvinit, y por quién?", "systemd"),
            ("¿Qué sección contiene el software no libre y cuántos paquetes tiene?", "non-free"),
            ("¿Qué servicio inicia el servidor SSH, y cuántos procesos lanza?", "systemd"),
        ],
    ),
)


# -- meta references to the material --------------------------------------------------------------
META_REFERENCES = _family(
    {"meta_reference"},
    _cases(
        "en",
        False,
        [
            ("Which text type does the COPY command read when the FORMAT option is omitted?", "text"),
            ("According to the 2021 census, which district of Kiel had the most residents?", "Mettenhof"),
            ("Which parameter sets the maximum size of a document stored in a jsonb column?", "none"),
            ("Which source server must have wal_level set to replica for pg_basebackup to work?", "the primary"),
            ("Which information schema view lists the columns of every table?", "information_schema.columns"),
            ("Which passage of the Treaty of Lisbon governs a member state's withdrawal?", "Article 50"),
            ("Which port did the ferry listed in the 1962 timetable of Baltic Star Shipping serve?", "Kiel"),
            (
                "Which setting is described in the release notes of PostgreSQL 9.6 as replacing checkpoint_segments?",
                "max_wal_size",
            ),
            ("Which data directory file records the options the server was started with?", "postmaster.opts"),
        ],
    ),
    _cases(
        "en",
        True,
        [
            ("Is there a ferry operator mentioned that also runs a night service to Oslo?", "Yes"),
            (
                "Which configuration parameter in this collection limits the number of autovacuum workers?",
                "autovacuum_max_workers",
            ),
            ("Which lock level does VACUUM FULL take, as described in the documents?", "ACCESS EXCLUSIVE"),
            (
                "According to the information provided, which parameter sets the checkpoint interval?",
                "checkpoint_timeout",
            ),
            ("Which view in the documents shows the progress of a running VACUUM?", "pg_stat_progress_vacuum"),
            ("Which of the settings listed controls the delay of the background writer?", "bgwriter_delay"),
            ("Based on the excerpts, which command rebuilds an index?", "REINDEX"),
            ("Which parameter do the passages above name as the trigger of a checkpoint?", "max_wal_size"),
            ("Which release, per the given context, removed checkpoint_segments?", "9.5"),
        ],
    ),
    _cases(
        "de",
        False,
        [
            ("Laut der Satzung des Vereins, wer beruft die Mitgliederversammlung ein?", "der Vorstand"),
            ("Welcher Texteditor ist in Debian als Standard für die Befehlszeile eingestellt?", "nano"),
            ("Was regelt laut dem Text des Vertrags von Lissabon der Artikel 50?", "den Austritt"),
            (
                "In welchem Dokument der Debian-Richtlinien steht, wo Konfigurationsdateien liegen müssen?",
                "Debian Policy",
            ),
            (
                "Welche Quellen trägt man in /etc/apt/sources.list ein, um Sicherheitsaktualisierungen zu bekommen?",
                "security.debian.org",
            ),
            ("Welcher Befehl zeigt Informationen über ein installiertes Paket an?", "dpkg -s"),
            ("Welcher Abschnitt des Filesystem Hierarchy Standard beschreibt das Verzeichnis /var?", "Abschnitt 5"),
            ("Wie heißt der Kontext-Manager von Pythons Modul contextlib, der Ausnahmen unterdrückt?", "suppress"),
        ],
    ),
    _cases(
        "de",
        True,
        [
            ("Welcher Befehl installiert ein Paket, wie im Dokument beschrieben?", "apt install"),
            ("Welche Datei listet laut den vorliegenden Unterlagen die Paketquellen auf?", "/etc/apt/sources.list"),
            ("Welches Pseudo-Dateisystem wird im Text unter /proc eingebunden?", "procfs"),
            ("Welche Sektion des Archivs enthält laut den Dokumenten unfreie Software?", "non-free"),
            ("Welcher Befehl wird in den bereitgestellten Informationen zum Aktualisieren genannt?", "apt update"),
            ("Welches Werkzeug, das in diesen Dokumenten erwähnt wird, löst Abhängigkeiten auf?", "apt"),
            ("Welche Paketquelle wird erwähnt, die Sicherheitsaktualisierungen liefert?", "security.debian.org"),
            ("Welcher Dienst startet laut dem Auszug den SSH-Server?", "systemd"),
        ],
    ),
    _cases(
        "fr",
        False,
        [
            ("Selon le texte de la loi de 1905, qui finance les cultes ?", "personne"),
            ("Quel éditeur de texte Debian installe-t-il par défaut pour la ligne de commande ?", "nano"),
            ("Quelles informations la commande dpkg -s affiche-t-elle sur un paquet ?", "son état"),
            ("Quel document de la charte Debian précise où placer les fichiers de configuration ?", "la Debian Policy"),
            ("D'après le recensement de 2019, quelle commune du Finistère compte le plus d'habitants ?", "Brest"),
            ("Quel passage à l'euro a eu lieu en 2002 en France ?", "le passage des francs aux euros"),
            (
                "Quelles sources ajouter à /etc/apt/sources.list pour recevoir les mises à jour de sécurité ?",
                "security.debian.org",
            ),
            ("Quel fichier du noyau, monté sous /sys, expose les paramètres des périphériques ?", "sysfs"),
        ],
    ),
    _cases(
        "fr",
        True,
        [
            (
                "Selon les informations fournies dans le contexte, quel fichier liste les sources APT ?",
                "/etc/apt/sources.list",
            ),
            ("Quel pseudo-système de fichiers est monté sous /proc, d'après ce texte ?", "procfs"),
            ("Quelle section de l'archive contient les logiciels non libres, selon les documents ?", "non-free"),
            ("Quelle commande est mentionnée pour mettre à jour la liste des paquets ?", "apt update"),
            ("Quel outil, cité dans le passage, résout les dépendances ?", "apt"),
            ("Dans les extraits fournis, quel service démarre le serveur SSH ?", "systemd"),
            ("Quel fichier, décrit ci-dessus, contrôle le montage au démarrage ?", "/etc/fstab"),
            ("Quel paquet fournit apt-get, comme indiqué dans les documents ?", "apt"),
        ],
    ),
    _cases(
        "es",
        False,
        [
            ("Según el texto de la Constitución de 1978, ¿quién sanciona las leyes?", "el Rey"),
            ("¿Qué editor de texto instala Debian por defecto para la línea de órdenes?", "nano"),
            ("¿Qué información muestra la orden dpkg -s sobre un paquete instalado?", "su estado"),
            (
                "¿Qué documento de la normativa de Debian indica dónde van los archivos de configuración?",
                "la Debian Policy",
            ),
            ("Según el censo de 2021, ¿qué municipio de Asturias tiene más habitantes?", "Gijón"),
            (
                "¿Qué fuentes se añaden a /etc/apt/sources.list para recibir actualizaciones de seguridad?",
                "security.debian.org",
            ),
            ("¿Qué sistema de archivos del núcleo, montado en /sys, expone los dispositivos?", "sysfs"),
            ("¿Qué fragmento de código de ejemplo usa la guía de Python para abrir archivos?", "with open"),
        ],
    ),
    _cases(
        "es",
        True,
        [
            ("¿Qué archivo enumera los repositorios de APT según los documentos?", "/etc/apt/sources.list"),
            ("Según el texto, ¿qué pseudo sistema de archivos se monta en /proc?", "procfs"),
            ("¿Qué sección del archivo contiene software no libre, según la información proporcionada?", "non-free"),
            ("¿Qué orden se menciona para actualizar la lista de paquetes?", "apt update"),
            ("¿Qué herramienta, citada en el fragmento, resuelve las dependencias?", "apt"),
            ("En los documentos, ¿qué servicio inicia el servidor SSH?", "systemd"),
            ("¿Qué archivo, descrito arriba, controla el montaje al arrancar?", "/etc/fstab"),
            ("¿Qué paquete proporciona apt-get, como se indica en el contexto?", "apt"),
        ],
    ),
)


# -- comparison answers ----------------------------------------------------------------------------
def _comparison(language: str, defective: bool, rows: list[tuple[str, str, tuple[str, ...]]]) -> list[Case]:
    return [
        Case(
            language, question, answer, defective, question_type="comparison", binary=answer in _YES, compared=compared
        )
        for question, answer, compared in rows
    ]


_YES = ("Yes", "Ja", "Oui", "Sí")
_ROYAL = ("the Royal Society", "the Académie des Sciences")
_SAINT = ("St. Petersburg", "Moscow")
_LINES = ("Harbour Line", "Baltic Line")
_PARAMS = ("autovacuum_naptime", "autovacuum_vacuum_cost_delay")
_APT = ("apt-get", "aptitude")
COMPARISON_ANSWERS = _family(
    {"comparison_answer", "comparison_names", "construction"},
    _comparison(
        "en",
        False,
        [
            (
                "Which was founded earlier, the Royal Society or the Académie des Sciences?",
                "Academie des Sciences",
                _ROYAL,
            ),
            ("Which city hosted the congress first, St. Petersburg or Moscow?", "Saint Petersburg", _SAINT),
            (
                "Which was founded earlier, the Royal Society of London or the Académie des Sciences?",
                "Royal Society",
                ("the Royal Society of London", "the Académie des Sciences"),
            ),
            (
                "Which has the longer default, autovacuum_naptime or autovacuum_vacuum_cost_delay?",
                "autovacuum_naptime",
                _PARAMS,
            ),
            ("Which peak is higher, Mt. Everest or K2?", "Mount Everest", ("Mt. Everest", "K2")),
            ("Which ferry line started service first, Harbour Line or Baltic Line?", "the Harbour Line", _LINES),
            (
                "Which was released first, PostgreSQL 9.6 or PostgreSQL 10?",
                "PostgreSQL 9.6.",
                ("PostgreSQL 9.6", "PostgreSQL 10"),
            ),
            ("Is the default of autovacuum_naptime longer than that of autovacuum_vacuum_cost_delay?", "Yes", _PARAMS),
        ],
    ),
    _comparison(
        "en",
        True,
        [
            (
                "Which was founded earlier, the Royal Society or the Académie des Sciences?",
                "the Royal Society or the Académie des Sciences",
                _ROYAL,
            ),
            ("Which city hosted the congress first, St. Petersburg or Moscow?", "Moscow, not St. Petersburg", _SAINT),
            ("Which ferry line started service first, Harbour Line or Baltic Line?", "Line", _LINES),
            (
                "Which has the longer default, autovacuum_naptime or autovacuum_vacuum_cost_delay?",
                "autovacuum",
                _PARAMS,
            ),
            (
                "Which was founded earlier, the Royal Society or the Académie des Sciences?",
                "the Prussian Academy",
                _ROYAL,
            ),
            (
                "Which was released first, PostgreSQL 9.6 or PostgreSQL 10?",
                "PostgreSQL",
                ("PostgreSQL 9.6", "PostgreSQL 10"),
            ),
            (
                "Which was founded earlier, the Royal Society or the Académie des Sciences?",
                "the Royal Society",
                ("the Royal Society",),
            ),
            ("Is the default of autovacuum_naptime longer than that of the cost delay?", "Yes", _PARAMS),
        ],
    ),
    _comparison(
        "de",
        False,
        [
            ("Welches Werkzeug ist älter, apt-get oder aptitude?", "apt-get", _APT),
            ("Welche Stadt ist größer, St. Pölten oder Krems?", "Sankt Pölten", ("St. Pölten", "Krems")),
            ("Welcher Fluss ist länger, die Donau oder der Rhein?", "Donau", ("die Donau", "der Rhein")),
            ("Welche Sektion ist größer, main oder contrib?", "die Sektion main", ("main", "contrib")),
            ("Welches Dateisystem wurde früher eingeführt, ext3 oder ext4?", "ext3.", ("ext3", "ext4")),
            (
                "Welcher Verein wurde früher gegründet, der Hamburger SV oder der FC Bayern München?",
                "Hamburger SV",
                ("der Hamburger SV", "der FC Bayern München"),
            ),
            (
                "Welche Schule ist älter, die Universität Köln oder die Universitaet Wien?",
                "Universität Wien",
                ("die Universität Köln", "die Universitaet Wien"),
            ),
            ("Ist apt-get älter als aptitude?", "Ja", _APT),
        ],
    ),
    _comparison(
        "de",
        True,
        [
            ("Welches Werkzeug ist älter, apt-get oder aptitude?", "apt-get oder aptitude", _APT),
            ("Welches Werkzeug ist älter, apt-get oder aptitude?", "aptitude, nicht apt-get", _APT),
            ("Welcher Fluss ist länger, die Donau oder der Rhein?", "die Elbe", ("die Donau", "der Rhein")),
            ("Welche Fährlinie fuhr zuerst, Hafen Linie oder Ostsee Linie?", "Linie", ("Hafen Linie", "Ostsee Linie")),
            ("Welches Dateisystem wurde früher eingeführt, ext3 oder ext4?", "ext", ("ext3", "ext4")),
            ("Welches Werkzeug ist älter, apt-get oder aptitude?", "apt-get", ("apt-get",)),
            ("Ist apt-get älter als das andere Werkzeug?", "Ja", _APT),
            (
                "Welcher Verein wurde früher gegründet, der Hamburger SV oder der FC Bayern München?",
                "beide",
                ("der Hamburger SV", "der FC Bayern München"),
            ),
        ],
    ),
    _comparison(
        "fr",
        False,
        [
            ("Quel outil est le plus ancien, apt-get ou aptitude ?", "apt-get", _APT),
            (
                "Quelle ville est la plus peuplée, St-Étienne ou Clermont-Ferrand ?",
                "Saint-Étienne",
                ("St-Étienne", "Clermont-Ferrand"),
            ),
            ("Quel fleuve est le plus long, la Loire ou la Seine ?", "Loire", ("la Loire", "la Seine")),
            ("Quelle section est la plus grande, main ou contrib ?", "la section main", ("main", "contrib")),
            ("Quel système de fichiers est apparu le premier, ext3 ou ext4 ?", "ext3", ("ext3", "ext4")),
            (
                "Quelle académie a été fondée la première, l'Académie française ou l'Académie des sciences ?",
                "l'Academie francaise",
                ("l'Académie française", "l'Académie des sciences"),
            ),
            (
                "Quel sommet est le plus haut, le Mont Blanc ou le Mont Rose ?",
                "le mont Blanc",
                ("le Mont Blanc", "le Mont Rose"),
            ),
            ("apt-get est-il plus ancien qu'aptitude ?", "Oui", _APT),
        ],
    ),
    _comparison(
        "fr",
        True,
        [
            ("Quel outil est le plus ancien, apt-get ou aptitude ?", "apt-get ou aptitude", _APT),
            ("Quel outil est le plus ancien, apt-get ou aptitude ?", "aptitude, pas apt-get", _APT),
            ("Quel fleuve est le plus long, la Loire ou la Seine ?", "le Rhône", ("la Loire", "la Seine")),
            (
                "Quelle académie a été fondée la première, l'Académie française ou l'Académie des sciences ?",
                "Académie",
                ("l'Académie française", "l'Académie des sciences"),
            ),
            (
                "Quel sommet est le plus haut, le Mont Blanc ou le Mont Rose ?",
                "Mont",
                ("le Mont Blanc", "le Mont Rose"),
            ),
            ("Quel outil est le plus ancien, apt-get ou aptitude ?", "aptitude", ("aptitude",)),
            ("Le premier outil est-il plus ancien qu'aptitude ?", "Oui", _APT),
            ("Quel système de fichiers est apparu le premier, ext3 ou ext4 ?", "les deux", ("ext3", "ext4")),
        ],
    ),
    _comparison(
        "es",
        False,
        [
            ("¿Qué herramienta es más antigua, apt-get o aptitude?", "apt-get", _APT),
            (
                "¿Qué ciudad es más grande, Sta. Cruz de Tenerife o Las Palmas?",
                "Santa Cruz de Tenerife",
                ("Sta. Cruz de Tenerife", "Las Palmas"),
            ),
            ("¿Qué río es más largo, el Ebro o el Duero?", "Ebro", ("el Ebro", "el Duero")),
            ("¿Qué sección es más grande, main o contrib?", "la sección main", ("main", "contrib")),
            ("¿Qué sistema de archivos apareció antes, ext3 o ext4?", "ext3", ("ext3", "ext4")),
            (
                "¿Qué universidad es más antigua, la Universidad de Salamanca o la Complutense?",
                "Universidad de Salamanca",
                ("la Universidad de Salamanca", "la Complutense"),
            ),
            ("¿Qué pico es más alto, el Teide o el Mulhacén?", "el Teide", ("el Teide", "el Mulhacén")),
            ("¿Es apt-get más antigua que aptitude?", "Sí", _APT),
        ],
    ),
    _comparison(
        "es",
        True,
        [
            ("¿Qué herramienta es más antigua, apt-get o aptitude?", "apt-get o aptitude", _APT),
            ("¿Qué herramienta es más antigua, apt-get o aptitude?", "aptitude, no apt-get", _APT),
            ("¿Qué río es más largo, el Ebro o el Duero?", "el Tajo", ("el Ebro", "el Duero")),
            (
                "¿Qué universidad es más antigua, la Universidad de Salamanca o la Universidad de Alcalá?",
                "Universidad",
                ("la Universidad de Salamanca", "la Universidad de Alcalá"),
            ),
            ("¿Qué sistema de archivos apareció antes, ext3 o ext4?", "ext", ("ext3", "ext4")),
            ("¿Qué herramienta es más antigua, apt-get o aptitude?", "apt-get", ("apt-get",)),
            ("¿Es la primera herramienta más antigua que aptitude?", "Sí", _APT),
            ("¿Qué pico es más alto, el Teide o el Mulhacén?", "ambos", ("el Teide", "el Mulhacén")),
        ],
    ),
    [
        Case(
            "en",
            "Which was founded earlier, the Royal Society or the Académie des Sciences?",
            "the Royal Society",
            True,
            question_type="comparison",
        ),
        Case(
            "en",
            "In which city was the architect of the Sydney Opera House born?",
            "Copenhagen",
            True,
            question_type="composition",
        ),
        Case(
            "de",
            "In welcher Stadt wurde der Architekt des Opernhauses von Sydney geboren?",
            "Kopenhagen",
            True,
            question_type="composition",
        ),
    ],
)


# -- yes/no answers --------------------------------------------------------------------------------
def _binary(language: str, defective: bool, question: str, answers: list[str]) -> list[Case]:
    return [Case(language, question, answer, defective, binary=True) for answer in answers]


BINARY_ANSWERS = _family(
    {"binary_answer"},
    _binary(
        "en",
        False,
        "Is autovacuum_naptime's default longer than the cost delay of autovacuum?",
        [
            "Yes",
            "yes.",
            "Yes, because 1 min is longer than 2 ms",
            "Yes (1 min vs 2 ms)",
            "No - 2 ms is shorter",
            "No, it is shorter",
            "YES",
            "No; the cost delay is 2 ms",
            "“Yes”",
        ],
    ),
    _binary(
        "en",
        True,
        "Is autovacuum_naptime's default longer than the cost delay of autovacuum?",
        [
            "1 min",
            "autovacuum_naptime",
            "Yesterday",
            "Nobody knows",
            "It is longer",
            "Probably",
            "True",
            "Non-stop",
            "Maybe yes",
        ],
    ),
    _binary(
        "de",
        False,
        "Ist apt-get älter als aptitude?",
        [
            "Ja",
            "ja.",
            "ja, 1998",
            "Ja, weil apt-get 1998 erschien",
            "Nein (aptitude ist älter)",
            "Nein – 1999",
            "JA",
            "Nein; aptitude erschien 1999",
        ],
    ),
    _binary(
        "de",
        True,
        "Ist apt-get älter als aptitude?",
        [
            "1998",
            "apt-get",
            "Jahr 1998",
            "Nee",
            "Vielleicht",
            "Es ist älter",
            "Jein",
            "Yes",
        ],
    ),
    _binary(
        "fr",
        False,
        "apt-get est-il plus ancien qu'aptitude ?",
        [
            "Oui",
            "oui.",
            "Oui, car apt-get date de 1998",
            "Oui (1998 contre 1999)",
            "Non, aptitude est plus ancien",
            "Non – 1999",
            "OUI",
            "Non ; aptitude date de 1999",
        ],
    ),
    _binary(
        "fr",
        True,
        "apt-get est-il plus ancien qu'aptitude ?",
        [
            "1998",
            "apt-get",
            "Nonante",
            "Peut-être",
            "Il est plus ancien",
            "Ouistiti",
            "Yes",
            "Vrai",
        ],
    ),
    _binary(
        "es",
        False,
        "¿Es apt-get más antigua que aptitude?",
        [
            "Sí",
            "sí.",
            "Sí, porque apt-get es de 1998",
            "Sí (1998 frente a 1999)",
            "No, aptitude es anterior",
            "No – 1999",
            "SÍ",
            "No; aptitude es de 1999",
        ],
    ),
    _binary(
        "es",
        True,
        "¿Es apt-get más antigua que aptitude?",
        [
            "1998",
            "apt-get",
            "Tal vez",
            "Es más antigua",
            "Noviembre",
            "Yes",
            "Cierto",
            "Siempre",
        ],
    ),
)


# -- opening pronouns ------------------------------------------------------------------------------
def _opening(language: str, defective: bool, rows: list[tuple[str, str]]) -> list[Case]:
    return _cases(language, defective, rows)


OPENING_PRONOUNS = _family(
    {"opening_pronoun"},
    _opening(
        "en",
        False,
        [
            ("It's a Wonderful Life or Vertigo: which film premiered first?", "It's a Wonderful Life"),
            ('"They Live" or "Halloween": which film did John Carpenter direct first?', "Halloween"),
            ("It Follows and Us: which film was released in 2014?", "It Follows"),
            ("This Is Spinal Tap or The Last Waltz: which was released first?", "The Last Waltz"),
            ("Her Majesty's Theatre in London opened in which year?", "1705"),
            ("Which parameter sets the delay between autovacuum runs?", "autovacuum_naptime"),
            ("It Happened One Night or Casablanca: which film won Best Picture first?", "It Happened One Night"),
            ("These Foolish Things or Stardust: which song was written first?", "Stardust"),
        ],
    ),
    _opening(
        "en",
        True,
        [
            ("It sets the delay between autovacuum runs: which parameter is it?", "autovacuum_naptime"),
            ("They replaced checkpoint_segments in 9.5; which parameters are they?", "max_wal_size"),
            ("This command rebuilds an index; what is it called?", "REINDEX"),
            ("Its default is one minute: which autovacuum setting is it?", "autovacuum_naptime"),
            ("He wrote the autovacuum daemon; in which release was it added?", "8.1"),
            ("These views show progress; which one covers VACUUM?", "pg_stat_progress_vacuum"),
            ("She maintains the package; which package is it?", "postgresql-15"),
            ("Their default is 3: which setting limits them?", "autovacuum_max_workers"),
        ],
    ),
    _opening(
        "de",
        False,
        [
            ("Sie suchen eine Nachtfähre von Kiel nach Oslo: welches Unternehmen betreibt sie?", "Color Line"),
            ("Sie möchten ein Paket festhalten: welcher apt-mark-Befehl tut das?", "apt-mark hold"),
            ("Ihr System bootet mit systemd: welcher Befehl zeigt die Startzeit an?", "systemd-analyze"),
            ("Es gibt zwei Werkzeuge für Pakete: welches ist älter, apt-get oder aptitude?", "apt-get"),
            ('"Es war einmal" oder "Die Brücke": welcher Film lief zuerst?', "Die Brücke"),
            ('"Jenseits von Eden" oder "Es geschah am hellichten Tag": welcher Film ist älter?', "Jenseits von Eden"),
            ("Welcher Befehl zeigt die installierten Pakete an?", "dpkg -l"),
            ("Ihre Paketquellen liegen in sources.list: welcher Befehl liest sie neu ein?", "apt update"),
        ],
    ),
    _opening(
        "de",
        True,
        [
            ("Es bindet Dateisysteme ein: welcher Befehl ist es?", "mount"),
            ("Er löst Abhängigkeiten auf; welches Werkzeug ist gemeint?", "apt"),
            ("Dieses Verzeichnis enthält virtuelle Dateien; wie heißt es?", "/proc"),
            ("Diese Datei listet Paketquellen; wie heißt sie?", "/etc/apt/sources.list"),
            ("Seine Voreinstellung ist nano: welcher Editor ist gemeint?", "nano"),
            ("Dies ersetzt sysvinit; wie heißt das Programm?", "systemd"),
            ("Jener Dienst startet SSH; welcher ist es?", "systemd"),
            ("Ihm gehört das Paket dpkg: welches Team ist es?", "das dpkg-Team"),
        ],
    ),
    _opening(
        "fr",
        False,
        [
            ("Vous cherchez un ferry de nuit entre Kiel et Oslo : quelle compagnie l'exploite ?", "Color Line"),
            ("Vous voulez bloquer un paquet : quelle commande apt-mark le fait ?", "apt-mark hold"),
            ("Il y a deux outils de paquets : lequel est le plus ancien, apt-get ou aptitude ?", "apt-get"),
            ("Il faut quelle commande pour relire les sources APT ?", "apt update"),
            ("« Il était une fois dans l'Ouest » ou « Le Mépris » : quel film est sorti en premier ?", "Le Mépris"),
            ("Quelle commande affiche les paquets installés ?", "dpkg -l"),
            ("Ce que fait apt-mark hold, c'est quoi ?", "bloquer un paquet"),
            ("Il s'agit de quel fichier pour les points de montage ?", "/etc/fstab"),
        ],
    ),
    _opening(
        "fr",
        True,
        [
            ("Il monte les systèmes de fichiers : quelle commande est-ce ?", "mount"),
            ("Elle liste les sources de paquets ; quel fichier est-ce ?", "/etc/apt/sources.list"),
            ("Ce répertoire contient des fichiers virtuels ; comment s'appelle-t-il ?", "/proc"),
            ("Cette commande résout les dépendances ; quel est son nom ?", "apt"),
            ("Son éditeur par défaut est nano : de quel système s'agit-il ?", "Debian"),
            ("Ils ont remplacé sysvinit ; quel programme ont-ils choisi ?", "systemd"),
            ("Ces paquets sont non libres ; dans quelle section sont-ils ?", "non-free"),
            ("Leur format est deb822 : quels fichiers sont concernés ?", "les sources APT"),
        ],
    ),
    _opening(
        "es",
        False,
        [
            ("Usted busca un ferri nocturno de Kiel a Oslo: ¿qué compañía lo opera?", "Color Line"),
            ("¿Usted quiere bloquear un paquete? ¿Qué orden de apt-mark lo hace?", "apt-mark hold"),
            ("¿Qué orden muestra los paquetes instalados?", "dpkg -l"),
            (
                '"Esta casa es una ruina" o "Aquí no hay quien viva": ¿qué serie se estrenó antes?',
                "Aquí no hay quien viva",
            ),
            ("¿Qué archivo contiene los puntos de montaje?", "/etc/fstab"),
            ("¿Su sistema arranca con systemd? ¿Qué orden muestra el tiempo de arranque?", "systemd-analyze"),
            (
                "Esta Noche Cruzamos el Mississippi o Crónicas Marcianas: ¿cuál se emitió antes?",
                "Esta Noche Cruzamos el Mississippi",
            ),
            ("¿Qué sección del archivo contiene software no libre?", "non-free"),
        ],
    ),
    _opening(
        "es",
        True,
        [
            ("Él monta los sistemas de archivos: ¿qué orden es?", "mount"),
            ("Ella enumera los repositorios; ¿qué archivo es?", "/etc/apt/sources.list"),
            ("Este directorio contiene archivos virtuales; ¿cómo se llama?", "/proc"),
            ("Esta orden resuelve dependencias; ¿cuál es su nombre?", "apt"),
            ("Aquel archivo enumera los repositorios; ¿cómo se llama?", "/etc/apt/sources.list"),
            ("Ellos sustituyeron a sysvinit; ¿qué programa eligieron?", "systemd"),
            ("Estos paquetes no son libres; ¿en qué sección están?", "non-free"),
            ("Esto reemplaza a sysvinit; ¿cómo se llama?", "systemd"),
        ],
    ),
)

TWO_QUESTIONS = _extended(
    TWO_QUESTIONS,
    Case("en", "Which index type supports the @> operator and how is it created?", "GIN", True),
    Case("en", "Which option of pg_dump writes a directory archive, and which compression does it use?", "-Fd", True),
    Case("en", "Who created the VACUUM command? Where was it first documented?", "x", True),
    Case(
        "en",
        "Which lock mode does CREATE INDEX CONCURRENTLY take while other sessions insert and update rows?",
        "SHARE UPDATE EXCLUSIVE",
        False,
    ),
    Case(
        "en",
        "What is the name of the file that pg_ctl reads and where the server writes its options?",
        "postmaster.opts",
        False,
    ),
    Case("en", "Which parameter sets the lock timeout, and since which version has it existed?", "lock_timeout", True),
    Case(
        "de",
        "Welcher Befehl entfernt ein Paket samt Konfiguration und wie lautet seine Option dafür?",
        "apt purge",
        True,
    ),
    Case("de", "Welches Programm verwaltet die Zeitzone und in welcher Datei speichert es sie?", "timedatectl", True),
    Case(
        "de",
        "Welche Datei legt fest, welche Module beim Booten geladen werden und in welcher Reihenfolge?",
        "/etc/modules",
        False,
    ),
    Case("fr", "Quel fichier définit le fuseau horaire, et quelle commande le modifie ?", "/etc/timezone", True),
    Case(
        "fr",
        "Quelle commande supprime un paquet avec sa configuration et quelle option utilise-t-elle ?",
        "apt purge",
        True,
    ),
    Case(
        "fr",
        "Quel fichier indique quels modules sont chargés au démarrage et dans quel ordre ?",
        "/etc/modules",
        False,
    ),
    Case("es", "¿Qué archivo define la zona horaria, y qué orden la cambia?", "/etc/timezone", True),
    Case("es", "¿Qué orden elimina un paquete con su configuración y cuál es su opción?", "apt purge", True),
    Case("es", "¿Qué archivo indica qué módulos se cargan al arrancar y en qué orden?", "/etc/modules", False),
)
META_REFERENCES = _extended(
    META_REFERENCES,
    Case("en", "Which index type do the provided passages recommend for full-text search?", "GIN", True),
    Case("en", "Which of the commands described can run inside a transaction block?", "ANALYZE", True),
    Case("en", "Which extension, as shown in the examples above, adds fuzzy matching?", "pg_trgm", True),
    Case("en", "Which data type is described in the SQL standard as a fixed-point number?", "numeric", False),
    Case("en", "Which section of the document root does Apache serve by default?", "/var/www/html", False),
    Case("de", "Welche Option nennt der vorliegende Text für das Entfernen von Paketen?", "purge", True),
    Case("de", "Welches Programm wird in der Dokumentation von Debian als Standard-Shell genannt?", "dash", False),
    Case("de", "Welcher Befehl ist laut Handbuchseite von apt für Upgrades zuständig?", "apt upgrade", False),
    Case("de", "Welche der genannten Dateien legt die Zeitzone fest?", "/etc/timezone", True),
    Case("fr", "Quelle option est citée dans ce document pour supprimer la configuration ?", "purge", True),
    Case("fr", "Parmi les fichiers mentionnés, lequel définit le fuseau horaire ?", "/etc/timezone", True),
    Case("fr", "Quelle option la page de manuel d'apt cite-t-elle pour purger un paquet ?", "purge", False),
    Case("es", "¿Qué opción se cita en este texto para purgar un paquete?", "purge", True),
    Case("es", "De los archivos mencionados, ¿cuál define la zona horaria?", "/etc/timezone", True),
    Case("es", "¿Qué opción cita la página de manual de apt para purgar un paquete?", "purge", False),
)
COMPARISON_ANSWERS = _extended(
    COMPARISON_ANSWERS,
    Case(
        "en",
        "Which came first, the Ford Model T or the Model A?",
        "Ford Model T, then the Model A",
        True,
        question_type="comparison",
        compared=("the Ford Model T", "the Model A"),
    ),
    Case(
        "en",
        "Which is older, Ste. Genevieve or Fort Wayne?",
        "Sainte Genevieve",
        False,
        question_type="comparison",
        compared=("Ste. Genevieve", "Fort Wayne"),
    ),
    Case(
        "en",
        "Which bridge is longer, the Öresund Bridge or the Great Belt Bridge?",
        "Oresund Bridge",
        False,
        question_type="comparison",
        compared=("the Öresund Bridge", "the Great Belt Bridge"),
    ),
    Case(
        "en",
        "Which bridge is longer, the Öresund Bridge or the Great Belt Bridge?",
        "Bridge",
        True,
        question_type="comparison",
        compared=("the Öresund Bridge", "the Great Belt Bridge"),
    ),
    Case(
        "de",
        "Welche Brücke ist länger, die Köhlbrandbrücke oder die Fehmarnsundbrücke?",
        "Koehlbrandbruecke",
        False,
        question_type="comparison",
        compared=("die Köhlbrandbrücke", "die Fehmarnsundbrücke"),
    ),
    Case(
        "de",
        "Welche Brücke ist länger, die Köhlbrandbrücke oder die Fehmarnsundbrücke?",
        "beide gleich",
        True,
        question_type="comparison",
        compared=("die Köhlbrandbrücke", "die Fehmarnsundbrücke"),
    ),
    Case(
        "fr",
        "Quelle ville est la plus ancienne, Ste-Foy ou Lévis ?",
        "Sainte-Foy",
        False,
        question_type="comparison",
        compared=("Ste-Foy", "Lévis"),
    ),
    Case(
        "fr",
        "Quelle ville est la plus ancienne, Ste-Foy ou Lévis ?",
        "Lévis et Sainte-Foy",
        True,
        question_type="comparison",
        compared=("Ste-Foy", "Lévis"),
    ),
    Case(
        "es",
        "¿Qué ciudad es más antigua, S. Sebastián o Bilbao?",
        "San Sebastián",
        False,
        question_type="comparison",
        compared=("S. Sebastián", "Bilbao"),
    ),
    Case(
        "es",
        "¿Qué ciudad es más antigua, San Sebastián o Bilbao?",
        "Bilbao y no San Sebastián",
        True,
        question_type="comparison",
        compared=("San Sebastián", "Bilbao"),
    ),
)
BINARY_ANSWERS = _extended(
    BINARY_ANSWERS,
    Case("en", "Is GIN faster to build than GiST?", "No. GiST builds faster", False, binary=True),
    Case("en", "Is GIN faster to build than GiST?", "Yes: GIN builds in 2 s", False, binary=True),
    Case("en", "Is GIN faster to build than GiST?", "Not really", True, binary=True),
    Case("de", "Ist dash die Standard-Shell?", "Ja! dash ist /bin/sh", False, binary=True),
    Case("de", "Ist dash die Standard-Shell?", "Nicht ganz", True, binary=True),
    Case("fr", "dash est-il le shell par défaut ?", "Oui : /bin/sh pointe vers dash", False, binary=True),
    Case("fr", "dash est-il le shell par défaut ?", "Pas du tout", True, binary=True),
    Case("es", "¿Es dash el intérprete por defecto?", "Sí: /bin/sh apunta a dash", False, binary=True),
    Case("es", "¿Es dash el intérprete por defecto?", "Nunca", True, binary=True),
)
OPENING_PRONOUNS = _extended(
    OPENING_PRONOUNS,
    Case("en", "They Shoot Horses, Don't They? or Midnight Cowboy: which won more Oscars?", "Midnight Cowboy", False),
    Case("en", "It runs before every checkpoint: which process is it?", "the checkpointer", True),
    Case("en", "Those parameters limit memory; which one applies per sort?", "work_mem", True),
    Case("de", "Sie haben Debian installiert: welcher Befehl zeigt die Version an?", "lsb_release", False),
    Case("de", "Er verwaltet die Zeitzone; welches Programm ist es?", "timedatectl", True),
    Case("fr", "Vous avez installé Debian : quelle commande affiche la version ?", "lsb_release", False),
    Case("fr", "Elle gère le fuseau horaire ; quelle commande est-ce ?", "timedatectl", True),
    Case("es", "Usted ha instalado Debian: ¿qué orden muestra la versión?", "lsb_release", False),
    Case("es", "Ella gestiona la zona horaria; ¿qué orden es?", "timedatectl", True),
)

TWO_QUESTIONS = _extended(
    TWO_QUESTIONS,
    Case(
        "en",
        "Which river flows through the city where the composer was born and which was renamed in 1991?",
        "the Neva",
        False,
    ),
    Case("en", "What is the name of the ship that sank in 1912 and whose captain was Edward Smith?", "Titanic", False),
    Case(
        "en",
        "Which option does the URI postgresql://localhost/mydb?sslmode=require set to require?",
        "sslmode",
        False,
    ),
    Case("fr", "Qui a écrit le roman qui a inspiré le film et qui a été publié en 1862 ?", "Victor Hugo", False),
    Case(
        "de",
        "Welche Option legt fest, wann der Dienst startet und welchen Port der Server verwendet?",
        "ListenStream",
        False,
    ),
)
META_REFERENCES = _extended(
    META_REFERENCES,
    Case("en", "Which coin was the most valuable in the collection when the museum opened?", "the aureus", False),
    Case("en", "Which river is mentioned and praised in the national anthem?", "the Vltava", False),
    Case("fr", "Quel auteur est cité le plus souvent dans les encyclopédies ?", "Voltaire", False),
    Case("es", "¿Qué autor se cita con más frecuencia en las enciclopedias?", "Cervantes", False),
)
COMPARISON_ANSWERS = _extended(
    COMPARISON_ANSWERS,
    Case(
        "en",
        "Which state joined the Union first, Virginia or West Virginia?",
        "Virginia",
        False,
        question_type="comparison",
        compared=("Virginia", "West Virginia"),
    ),
    Case(
        "en",
        "Which film came out first, Toy Story or Toy Story 2?",
        "Toy Story 2",
        False,
        question_type="comparison",
        compared=("Toy Story", "Toy Story 2"),
    ),
    Case(
        "en",
        "Which film came out first, Toy Story or Toy Story 2?",
        "Toy Story or Toy Story 2",
        True,
        question_type="comparison",
        compared=("Toy Story", "Toy Story 2"),
    ),
)
BINARY_ANSWERS = _extended(
    BINARY_ANSWERS,
    Case("en", "Is GIN faster to build than GiST?", "Yes and no", True, binary=True),
    Case("en", "Is GIN faster to build than GiST?", "Yes, but only for small tables", True, binary=True),
    Case("de", "Ist dash die Standard-Shell?", "Ja, aber nur für /bin/sh", True, binary=True),
    Case("fr", "dash est-il le shell par défaut ?", "Non seulement pour /bin/sh", True, binary=True),
)

# -- a prompt's example copied: its placeholders, its names, the example itself --------------------
# Real chunks: the PostgreSQL 15 manual, the Debian Reference (its French and Spanish translations leave some
# English sentences as they are), the fontconfig user manual; the rivers' lengths as an encyclopedia gives them.
_NAPTIME = (
    "autovacuum_naptime (integer)\n\nSpecifies the minimum delay between autovacuum runs on any given database. "
    "The default is one minute (1min)."
)
_CONNECTIONS = (
    "max_connections (integer)\n\nDetermines the maximum number of concurrent connections to the database server. "
    "The default is typically 100 connections."
)
_DETACH = (
    "Tables may be added as a partition with ALTER TABLE ... ATTACH PARTITION only if their columns exactly match "
    "the parent. The second form allows the detach operation to require only SHARE UPDATE EXCLUSIVE lock on the "
    "parent table, but see ALTER TABLE ... DETACH PARTITION for details on the restrictions."
)
_UNION = (
    "As you can see, in this skeleton we're dealing with a data type where union(X, Y, Z) = union(union(X, Y), Z). "
    "It's easy enough to support data types where this is not the case."
)
_DATABASE = (
    "any ALTER DATABASE ... SET ... and ALTER ROLE ... IN DATABASE ... SET ... commands that mention this database"
)
_INITDB = (
    "-D directory\n--pgdata=directory\n\nThis option specifies the directory where the database cluster should be "
    "stored."
)
_BASEBACKUP = (
    "pg_basebackup is used to take a base backup of a running PostgreSQL database cluster. The backup is taken "
    "without affecting other clients of the database."
)
_FONTCONFIG = (
    '<dir prefix="default" salt="">\nThis element contains a directory name which will be scanned for font files. '
    'If \'prefix\' is set to "default" or "cwd", the current working directory will be added as the path prefix.'
)
_X_APPS = (
    "Traditional Unix style mouse operations: use 3 buttons (click), used by X applications such as xterm and "
    "text applications in Linux console"
)
_X_SERVER = 'See Section 1.1.4 and Section 7.8, "X server connection". Never start the GUI display/session manager.'
_X_FR = (
    "Ne jamais faire tourner de programme distant non sûrs avec une interface graphique sous X Window lorsque des "
    "informations critiques sont affichées parce que votre écran X peut être espionné."
)
_X_ES = (
    "puede iniciarlas desde el intérprete de órdenes del superusuario en un emulador de terminal de X como "
    "gnome-terminal(1), rxvt(1), o xterm(1). Es una buena idea usar el entorno X con la configuración regional UTF-8."
)
_X_DE = (
    "In der GUI-Oberfläche bekommen Sie eine Shell-Eingabeaufforderung, indem Sie einen X-Terminal-Emulator wie "
    "gnome-terminal(1), rxvt(1) oder xterm(1) starten."
)
_SHELL_DE = (
    "Tabelle 1.13. Liste von Shell-Programmen: dash ist die Standard-Shell für /bin/sh; bash ist die Login-Shell."
)
_LOCALE_FR = (
    "La locale par défaut du système est définie dans /etc/default/locale ; la commande dpkg-reconfigure locales "
    "la change."
)
_APT_ES = "apt-get y aptitude gestionan paquetes; aptitude ofrece una interfaz de texto a pantalla completa."
_RIVERS = (
    "The Danube is Europe's second-longest river, at 2,850 km.",
    "The Dnieper flows 2,200 km from Russia through Belarus and Ukraine to the Black Sea.",
)
_RIVERS_FR = ("Le Danube mesure 2 850 km.", "Le Dniepr, 2 200 km.")
_RIVERS_ES = ("El Danubio mide 2850 km.", "El Dniéper, 2200 km.")
_AXES_ES = ("el eje x muestra el tiempo, el eje y la latencia",)
_CHROMOSOMES = ("The human Y chromosome spans about 57 million base pairs, the X chromosome about 156 million.",)


def _examples(language: str, defective: bool, rows: list[tuple[str, tuple[str, ...]]]) -> list[Case]:
    return [Case(language, question, "an answer", defective, chunks=chunks) for question, chunks in rows]


PROMPT_EXAMPLES = _family(
    {"prompt_example"},
    _examples(
        "en",
        False,
        [
            ("Which lock does ALTER TABLE ... DETACH PARTITION take on the parent table?", (_DETACH,)),
            ("Which data types satisfy union(X, Y, Z) = union(union(X, Y), Z) in a GiST union function?", (_UNION,)),
            ("Which commands does ALTER DATABASE ... SET ... write for a database's settings?", (_DATABASE,)),
            ("Which initdb option sets the cluster directory given as -D <directory>?", (_INITDB,)),
            ("Which attribute of the <dir> element makes fontconfig add the working directory as a prefix?",
             (_FONTCONFIG,)),
            ("Which X applications use the traditional three-button mouse operations?", (_X_APPS,)),
            ('Which section of the Debian Reference covers the "X server connection"?', (_X_SERVER,)),
            ("Which river is longer, the Danube or the Dnieper?", _RIVERS),
            ("Is the human Y chromosome longer than the X chromosome?", _CHROMOSOMES),
            ("Does Mac OS X ship rsync with the operating system?", ()),
            ("Which display server replaced the X Window System in GNOME's default session?", ()),
            ("Which default does autovacuum_naptime have, one minute or 100 connections?", (_NAPTIME, _CONNECTIONS)),
            ("Which axis, X or Y, shows latency in pgbench's plot?", ("the x-axis shows time, the y-axis latency",)),
            ("Is X forwarding enabled by default in OpenSSH's sshd?", ("X11Forwarding: the default is no.",)),
        ],
    ),
    _examples(
        "de",
        False,
        [
            ("Welche X-Terminal-Emulatoren nennt die Debian-Referenz neben xterm?", (_X_DE,)),
            ("Ist dash die Standard-Shell für /bin/sh?", (_SHELL_DE,)),
            ("Unterstützt Mac OS X das Dateisystem HFS+?", ()),
            ("Welcher Fluss ist länger, die Donau oder der Dnepr?", ()),
            ("Welche Sperre nimmt ALTER TABLE ... DETACH PARTITION auf der Elterntabelle?", (_DETACH,)),
            ("Welches Attribut des Elements <dir> setzt fontconfig das Arbeitsverzeichnis als Präfix?", (_FONTCONFIG,)),
            ("Welche Bedingung muss union(X, Y, Z) = union(union(X, Y), Z) für GiST erfüllen?", (_UNION,)),
            ("Welche Befehle schreibt ALTER DATABASE ... SET ... für die Einstellungen einer Datenbank?", (_DATABASE,)),
            ("Welcher Abschnitt der Debian-Referenz behandelt die X-Server-Verbindungen?", (_X_DE,)),
            ("Welches Gen auf dem Y‑Chromosom bestimmt das Geschlecht?", ("Das Y-Chromosom trägt das Gen SRY.",)),
        ],
    ),
    _examples(
        "fr",
        False,
        [
            ("Pourquoi ne faut-il pas lancer de programme distant non sûr sous X Window ?", (_X_FR,)),
            ("Qu'est-ce qui peut espionner votre écran X ?", (_X_FR,)),
            ("Quel fichier définit la locale par défaut du système Debian ?", (_LOCALE_FR,)),
            ("Quel fleuve est le plus long, le Danube ou le Dniepr ?", _RIVERS_FR),
            ("Quelle option d'initdb fixe le répertoire de la grappe passé à -D <directory> ?", (_INITDB,)),
            ("Mac OS X fournit-il rsync avec le système ?", ()),
            ("Le transfert X est-il activé par défaut dans sshd ?", ("X11Forwarding : la valeur par défaut est no.",)),
            ("Quel verrou ALTER TABLE ... DETACH PARTITION prend-il sur la table parente ?", (_DETACH,)),
            ("Quel attribut de l'élément <dir> ajoute le répertoire courant comme préfixe ?", (_FONTCONFIG,)),
            ("Quelles applications X utilisent les trois boutons de la souris ?", (_X_APPS,)),
        ],
    ),
    _examples(
        "es",
        False,
        [
            ("¿Qué emulador de terminal de X cita la referencia junto a rxvt?", (_X_ES,)),
            ("¿Qué codificación conviene usar en el entorno X?", (_X_ES,)),
            ("¿Qué herramienta ofrece una interfaz de texto a pantalla completa, apt-get o aptitude?", (_APT_ES,)),
            ("¿Qué río es más largo, el Danubio o el Dniéper?", _RIVERS_ES),
            ("¿Qué bloqueo toma ALTER TABLE ... DETACH PARTITION sobre la tabla padre?", (_DETACH,)),
            ("¿Incluye Mac OS X la herramienta rsync?", ()),
            ("¿Qué opción de initdb fija el directorio del clúster pasado como -D <directory>?", (_INITDB,)),
            ("¿Qué tipos de datos cumplen union(X, Y, Z) = union(union(X, Y), Z) en GiST?", (_UNION,)),
            ("¿Es el cromosoma Y humano más corto que el cromosoma X?", _CHROMOSOMES),
            ("¿Qué eje, X o Y, representa el tiempo en la gráfica de pgbench?", _AXES_ES),
        ],
    ),
    _examples(
        "en",
        True,
        [
            ("Which was founded earlier, X or Y?", (_NAPTIME, _CONNECTIONS)),
            ("Which has more members, X or Y?", (_NAPTIME, _CONNECTIONS)),
            ("Does X allow more connections than Y?", (_CONNECTIONS, _NAPTIME)),
            ("Which city hosted both X and Y?", (_X_APPS, _X_SERVER)),
            ("Which release introduced the setting that controls X?", (_NAPTIME,)),
            ("Which is older, autovacuum_naptime or Y?", (_NAPTIME, _CONNECTIONS)),
            ("What is the default value of <parameter>?", (_NAPTIME, _CONNECTIONS)),
            ("Which of [entity 1] and [entity 2] has the larger default?", (_NAPTIME, _CONNECTIONS)),
            ("Which ... both ... and ...?", (_DATABASE, _DETACH)),
            ("Which setting both limits connections and ...?", (_NAPTIME, _CONNECTIONS)),
            ("How do you restore X from a base backup?", (_BASEBACKUP,)),
            ("What award did the director of the film win?", (_NAPTIME, _CONNECTIONS)),
            ("According to the passage, when was it released?", (_NAPTIME,)),
            ("In which city was the architect of the Sydney Opera House born?", (_NAPTIME, _CONNECTIONS)),
            ("Which river is longer, the Danube or the Dnieper?", (_NAPTIME, _CONNECTIONS)),
            ("What is the default listener port of the Mosquitto broker?", (_CONNECTIONS,)),
            ("Which has more members, Company X or Company Y?", (_NAPTIME, _CONNECTIONS)),
        ],
    ),
    _examples(
        "de",
        True,
        [
            ("Welche wurde früher gegründet, X oder Y?", (_X_DE, _SHELL_DE)),
            ("Hat X mehr Mitglieder als Y?", (_SHELL_DE,)),
            ("Ist X Mitglied von Y?", (_SHELL_DE,)),
            ("Welche Stadt war Gastgeber von sowohl X als auch Y?", (_X_DE,)),
            ("Was ist der Standardwert von <Parameter>?", (_SHELL_DE,)),
            ("Welche ... sowohl ... als auch ...?", (_SHELL_DE,)),
            ("In welcher Stadt wurde der Architekt des Sydney Opera House geboren?", (_SHELL_DE,)),
            ("Welcher Fluss ist länger, die Donau oder der Dnieper?", (_SHELL_DE,)),
            ("Welche hat mehr Mitglieder, Verein X oder Verein Y?", (_SHELL_DE,)),
            ("In welcher Stadt wurde der Architekt des Opernhauses von Sydney geboren?", (_SHELL_DE,)),
            ("Wie stellt man X aus einer Basissicherung wieder her?", (_BASEBACKUP,)),
            ("Welche Shell ist für [Name] die Standard-Shell?", (_SHELL_DE,)),
        ],
    ),
    _examples(
        "fr",
        True,
        [
            ("Lequel a le plus de membres, X ou Y ?", (_LOCALE_FR,)),
            ("Quelle ville a accueilli à la fois X et Y ?", (_X_FR,)),
            ("Quelle est la valeur par défaut de <paramètre> ?", (_LOCALE_FR,)),
            ("Quel fleuve est le plus long, le Danube ou le Dniepr ?", (_LOCALE_FR,)),
            ("Comment restaurer X à partir d'une sauvegarde de base ?", (_LOCALE_FR,)),
            ("Quelle commande change ... et ... ?", (_LOCALE_FR,)),
            ("X est-il activé par défaut ?", (_LOCALE_FR,)),
            ("Dans quelle ville est né l'architecte du Sydney Opera House ?", (_LOCALE_FR,)),
            ("Quelle locale définit {entité} par défaut ?", (_LOCALE_FR,)),
            ("Dans quelle ville est né l'architecte de l'Opéra de Sydney ?", (_LOCALE_FR,)),
        ],
    ),
    _examples(
        "es",
        True,
        [
            ("¿Cuál tiene más miembros, X o Y?", (_APT_ES,)),
            ("¿Qué ciudad acogió tanto X como Y?", (_X_ES,)),
            ("¿Cuál es el valor predeterminado de <parámetro>?", (_APT_ES,)),
            ("¿Está X habilitado por defecto?", (_APT_ES,)),
            ("¿Qué río es más largo, el Danubio o el Dnieper?", (_APT_ES,)),
            ("¿Qué herramienta ... tanto ... como ...?", (_APT_ES,)),
            ("¿Qué versión introdujo el parámetro que controla X?", (_APT_ES,)),
            ("¿En qué ciudad nació el arquitecto de la Sydney Opera House?", (_APT_ES,)),
            ("¿Qué gestor de paquetes usa [nombre] por defecto?", (_APT_ES,)),
            ("¿Qué río es más largo, el Danubio o el Dniéper?", (_APT_ES,)),
            ("¿En qué ciudad nació el arquitecto de la Ópera de Sídney?", (_APT_ES,)),
        ],
    ),
)  # fmt: skip

# A second question whose question word is followed by an ordinary finite verb ("and who composed its score",
# "et qui a composé", "y qué opción selecciona"), beside minimal pairs in which the same words open a relative
# clause or an indirect question that continues one of the first part, and pass.
TWO_QUESTIONS = _extended(
    TWO_QUESTIONS,
    *_cases(
        "en",
        True,
        [
            ("Which developer maintains pg_basebackup and who wrote pg_restore?", "Magnus Hagander"),
            ("Which utility takes a base backup and who maintains it?", "pg_basebackup"),
            ("Which setting enables WAL archiving and what option selects the archive command?", "archive_mode"),
            ("Which release added pg_basebackup or which release introduced streaming replication?", "9.1"),
            ("Which view reports the replication lag, and which column shows the replay position?",
             "pg_stat_replication"),
            ("Which command reclaims dead tuples and what process launched the autovacuum workers?", "VACUUM"),
            ("Which lock does VACUUM FULL take, and who designed the lock manager?", "ACCESS EXCLUSIVE"),
            ("Which index type supports the @> operator but which operator class provides jsonb_path_ops?", "GIN"),
            ("Which function returns the current WAL location and what parameter controls wal_level?",
             "pg_current_wal_lsn"),
            ("Which server process writes dirty buffers and who introduced the background writer?",
             "the background writer"),
            ("Which catalog stores the table owners and which view showed the privileges?", "pg_class"),
            ("What does autovacuum_naptime set and who chose its default of one minute?", "the launcher's delay"),
        ],
    ),
    *_cases(
        "en",
        False,
        [
            ("Which developer is the one who maintains pg_basebackup and who wrote pg_restore?", "Magnus Hagander"),
            ("Which file shows which setting enables WAL archiving and what option selects the archive command?",
             "postgresql.conf"),
            ("Which view reports which column shows the replay position and which column shows the lag?",
             "pg_stat_replication"),
            ("Which log records who started the server and who stopped it?", "the server log"),
            ("Which page lists what the launcher does and what it skips?", "the autovacuum page"),
            ("Which catalog records the owner of each table and what privileges it grants?", "pg_class"),
            ("Who is the author who founded the project and who wrote its first release?", "Michael Stonebraker"),
            ("Which table-level option overrides the threshold that autovacuum uses and which applies to TOAST tables?",
             "toast.autovacuum_vacuum_threshold"),
            ("Which parameter sets how many workers autovacuum starts and what each of them vacuums?",
             "autovacuum_max_workers"),
            ("Which setting limits the memory that each sort uses and that hash tables take?", "work_mem"),
            ("Which setting or which environment variable overrides the default port?", "port"),
            ('Which conference hosted the talk "Kubernetes and Who Runs It"?', "KubeCon"),
        ],
    ),
    *_cases(
        "fr",
        True,
        [
            ("Quel paquet fournit la commande apt-get et qui a écrit la bibliothèque libapt ?", "apt"),
            ("Quel fichier liste les sources de paquets et quelle option sélectionne le miroir ?",
             "/etc/apt/sources.list"),
            ("Quelle commande installe un paquet et qui maintient dpkg ?", "apt install"),
            ("Quel service démarre le serveur SSH et où se trouve son fichier de configuration ?", "systemd"),
            ("Quel outil gère les dépendances, et quelle commande supprime un paquet avec sa configuration ?", "apt"),
            ("Quelle variable définit la langue et qui l'a introduite dans Debian ?", "LANG"),
            ("Quel programme a remplacé sysvinit ou quel paquet fournit systemd ?", "systemd"),
            ("Quel fichier définit le fuseau horaire et quelle commande modifie l'horloge ?", "/etc/timezone"),
            ("Quel paquet contient le noyau et qui publia sa première version ?", "linux-image"),
        ],
    ),
    *_cases(
        "fr",
        False,
        [
            ("Quel est le développeur qui a écrit la commande apt-get et qui a écrit la bibliothèque libapt ?",
             "Jason Gunthorpe"),
            ("Quel fichier indique quelle option sélectionne le miroir et quelle option sélectionne la section ?",
             "/etc/apt/sources.list"),
            ("Quel journal indique qui a installé le paquet et qui l'a supprimé ?", "/var/log/dpkg.log"),
            ("Quel fichier précise quelle version le dépôt fournit et quelle section il utilise ?",
             "/etc/apt/preferences"),
            ("Quelle commande affiche les paquets installés et quelle taille ils occupent ?", "dpkg-query"),
            ("Quelle ville est celle où Debian est né et où se tient la DebConf ?", "Indianapolis"),
            ("Quel paquet fournit la commande qui gère les dépôts et qui lit sources.list ?", "apt"),
            ("Quel fichier liste les sources de paquets et la façon dont elles sont classées ?",
             "/etc/apt/sources.list"),
            ("Quel est le paquet installé par défaut et qui fournit la commande sudo ?", "sudo"),
            ("Quelle est la version publiée en 2019 et qui a introduit le support de Wayland ?", "Debian 10"),
            ("Quel est le répertoire créé à l'installation et où apt stocke les paquets téléchargés ?",
             "/var/cache/apt/archives"),
            ("Quelle commande ou quelle option désactive le pare-feu ?", "ufw disable"),
        ],
    ),
    *_cases(
        "es",
        True,
        [
            ("¿Qué paquete proporciona apt-get y quién escribió la biblioteca libapt?", "apt"),
            ("¿Qué archivo enumera los repositorios y qué opción selecciona la réplica?", "/etc/apt/sources.list"),
            ("¿Qué orden instala un paquete y quién mantiene dpkg?", "apt install"),
            ("¿Qué servicio inicia el servidor SSH y dónde guarda su configuración?", "systemd"),
            ("¿Qué variable define el idioma y cuándo la introdujo Debian?", "LANG"),
            ("¿Qué programa sustituyó a sysvinit o qué paquete proporciona systemd?", "systemd"),
            ("¿Qué archivo define la zona horaria y qué orden cambia el reloj?", "/etc/timezone"),
            ("¿Qué herramienta resuelve dependencias y cuál usa aptitude por defecto?", "apt"),
            ("¿Qué paquete contiene el núcleo y quién publicó su primera versión?", "linux-image"),
        ],
    ),
    *_cases(
        "es",
        False,
        [
            ("¿Quién es el desarrollador que escribió apt-get y que mantiene la biblioteca libapt?",
             "Jason Gunthorpe"),
            ("¿Qué archivo indica qué opción selecciona la réplica y qué opción selecciona la sección?",
             "/etc/apt/sources.list"),
            ("¿Qué registro muestra quién instaló el paquete y quién lo eliminó?", "/var/log/dpkg.log"),
            ("¿Qué paquete proporciona la orden que gestiona los repositorios y que lee sources.list?", "apt"),
            ("¿Cuál es la ciudad donde nació Debian y donde se celebró la primera DebConf?", "Indianapolis"),
            ("¿Qué orden muestra cuántos paquetes están instalados y cuántos se pueden actualizar?", "apt list"),
            ("¿Qué variable indica qué idioma usa el sistema y cómo se configura?", "LANG"),
            ("¿Qué archivo define qué repositorios usa APT y en qué orden los consulta?", "/etc/apt/sources.list"),
            ("¿Qué comando o qué opción de configuración desactiva el cortafuegos?", "ufw disable"),
            ("¿Qué paquete, o cuál de sus dependencias, instala el demonio sshd?", "openssh-server"),
            ("¿Con qué versiones y qué sistemas operativos es compatible Docker Desktop?", "Windows 10"),
        ],
    ),
)  # fmt: skip

# -- evidence: the quotes a draft rests on, held to their chunks ----------------------------------------------
_SYSLOG = (
    "syslog_sequence_numbers (boolean)\n\nWhen logging to syslog and this is on (the default), then each message will "
    "be prefixed by an increasing sequence number (such as [2]). This circumvents the “--- last message repeated N "
    "times ---” suppression that many syslog implementations perform by default.",
    "For sequences, allows use of the currval and nextval functions.\n\nFor types and domains, allows use of the "
    "type or domain in the creation of tables, functions, and other schema objects. (Note that this privilege does "
    "not control all “usage” of the type, such as values of the type appearing in queries.",
)
_SUDO_DE = (
    "1.1.12. sudo-Konfiguration\nFür ein typisches Einzelbenutzer-Arbeitsplatzsystem, wie z.B. einen "
    "Debian-Desktopauf einem Laptop, ist es gängig, wie folgt eine einfache Konfiguration für sudo(8) einzurichten, "
    "so dass der nicht-privilegierten Benutzer, z.B. penguin, lediglich mit seinem Benutzer-Passwort (aber ohne das "
    'root-Passwort) administrative Rechte bekommen kann:\n# echo "penguin  ALL=(ALL) ALL" >> /etc/sudoers',
    "2.3.5. Systemweite Hochrüstung\nWenn Sie sich entscheiden, vor der offiziellen Freigabe der nächsten "
    "Veröffentlichung von Stable zu Testing zu wechseln, gibt es keine Veröffentlichunshinweise, die Ihnen helfen "
    "könnten. Die Unterschiede zwischen Stable und Testing könnten seit der letzten Stable-Veröffentlichung ziemlich "
    "groß geworden sein und die Situation für eine Hochrüstung recht komplex machen.",
)
_DPKG_FR = (
    "2.6.6. Récupération avec la commande dpkg\nSi la tentative d’installation d’un paquet de cette manière échoue "
    "en raison de la violation de certaines dépendances et que vous voulez vraiment le faire, vous pouvez, en dernier "
    "ressort, outrepasser les dépendances en utilisant les options «\xa0--ignore-depends\xa0», "
    "«\xa0--force-depends\xa0» de dpkg et d’autres options.",
    "1.6.4. Substitution globale avec des expressions rationnelles\nConsultez «\xa0Bref historique de Debian\xa0» "
    "pour la dernière Debian leadership history.\nAwk est fréquemment utilisé pour extraire des données de fichiers "
    "texte.",
)
_FILES_ES = (
    "1.2. Sistema de archivos tipo Unix\nEn GNU/Linux y otros sistemas operativos tipo Unix, los archivos se "
    "organizan en directorios. Todos los archivos y directorios están ordenados en un gran árbol que tiene como raíz "
    "«/». Se le llama árbol porque si se dibuja el sistema de archivos, parece un árbol pero cabeza abajo.",
    "2.3.5. Actualización mayor del sistema\nUsted debería ser precavido cuando realiza un actualización completa y "
    "consultar la información actualizada sobre ello y usar el sentido común.\n1. Lea las anterior «Release "
    "Notes«.\n2. Realice una copia de respaldo (o de seguridad) completa (especialmente los datos y las "
    "configuraciones).",
)


def _quoted(language: str, defective: bool, chunks: tuple[str, str], rows: list[tuple[str, str]]) -> list[Case]:
    """Drafts over `chunks` quoting A then B: each row is (quote of A, quote of B)."""
    return [
        Case(language, "Which of the two settings is a boolean?", "x", defective, chunks=chunks,
             quotes=((0, quote_a), (1, quote_b)) if quote_b else ((0, quote_a),))
        for quote_a, quote_b in rows
    ]  # fmt: skip


EVIDENCE = _family(
    {"evidence"},
    _quoted(
        "en",
        False,
        _SYSLOG,
        [
            ("syslog_sequence_numbers (boolean)", "For sequences, allows use of the currval and nextval functions."),
            (
                "then each message will be prefixed by an increasing sequence number (such as [2]).",
                "allows use of the type or domain in the creation of tables, functions, and other schema objects.",
            ),
            (
                'This circumvents the "--- last message repeated N times ---" suppression',
                "For sequences, allows use of the currval and nextval functions.",
            ),
            (
                "When logging to syslog and this is on (the default), then each message will be prefixed",
                'Note that this privilege does not control all "usage" of the type',
            ),
            (
                "syslog_sequence_numbers (boolean) When logging to syslog",
                "For types and domains, allows use of the type",
            ),
            (
                "  then each message will be prefixed by an increasing sequence number  ",
                "currval and nextval functions.",
            ),
            ("This circumvents the ‘--- last message repeated N times ---’ suppression", "allows use of the type"),
            (
                "syslog_sequence_numbers (boolean)\nWhen logging to syslog",
                "For sequences,\n\nallows use of the currval",
            ),
        ],
    ),
    _quoted(
        "en",
        True,
        _SYSLOG,
        [
            ("Each message is prefixed by an increasing sequence number.", "allows use of the currval function"),
            ("syslog_sequence_numbers (integer)", "For sequences, allows use of the currval and nextval functions."),
            ("syslog_sequence_numbers (boolean)", "For sequences, allows the use of currval and nextval."),
            ("syslog_sequence_numbers (boolean)", ""),
            ("For sequences, allows use of the currval and nextval functions.", "syslog_sequence_numbers (boolean)"),
            ("then every message will be prefixed by an increasing sequence number", "allows use of the type"),
            ("This circumvents the last message repeated suppression", "For types and domains, allows use of the type"),
            ("syslog_sequence_numbers (boolean) is on by default", "For sequences, allows use of the currval"),
        ],
    ),
    _quoted(
        "de",
        False,
        _SUDO_DE,
        [
            ("1.1.12. sudo-Konfiguration", "2.3.5. Systemweite Hochrüstung"),
            (
                '# echo "penguin  ALL=(ALL) ALL" >> /etc/sudoers',
                "gibt es keine Veröffentlichunshinweise, die Ihnen helfen könnten.",
            ),
            ("# echo “penguin ALL=(ALL) ALL” >> /etc/sudoers", "Die Unterschiede zwischen Stable und Testing"),
            (
                "ist es gängig, wie folgt eine einfache Konfiguration für sudo(8) einzurichten",
                "vor der offiziellen Freigabe der nächsten Veröffentlichung von Stable zu Testing zu wechseln",
            ),
            (
                "lediglich mit seinem Benutzer-Passwort (aber ohne das root-Passwort) administrative Rechte "
                "bekommen kann",
                "die Situation für eine Hochrüstung recht komplex machen.",
            ),
            (
                "1.1.12. sudo-Konfiguration Für ein typisches Einzelbenutzer-Arbeitsplatzsystem",
                "2.3.5. Systemweite Hochrüstung Wenn Sie sich entscheiden",
            ),
            (
                '#  echo  "penguin ALL=(ALL) ALL"  >>  /etc/sudoers',
                "Stable-Veröffentlichung ziemlich groß geworden sein",
            ),
            ("wie z.B. einen Debian-Desktopauf einem Laptop", "Die Unterschiede zwischen Stable und\nTesting"),
        ],
    ),
    _quoted(
        "de",
        True,
        _SUDO_DE,
        [
            ('# echo "penguin ALL=(ALL) NOPASSWD: ALL" >> /etc/sudoers', "2.3.5. Systemweite Hochrüstung"),
            ("1.1.12. Die sudo-Konfiguration", "2.3.5. Systemweite Hochrüstung"),
            (
                "ist es üblich, eine einfache Konfiguration für sudo einzurichten",
                "Die Unterschiede zwischen Stable und Testing",
            ),
            ("1.1.12. sudo-Konfiguration", "gibt es keine Hinweise, die Ihnen helfen könnten."),
            ("1.1.12. sudo-Konfiguration", ""),
            ("2.3.5. Systemweite Hochrüstung", "1.1.12. sudo-Konfiguration"),
            ("mit seinem Benutzer-Passwort administrative Rechte bekommen kann", "zu Testing zu wechseln"),
            ("1.1.12 sudo Konfiguration", "2.3.5. Systemweite Hochrüstung"),
        ],
    ),
    _quoted(
        "fr",
        False,
        _DPKG_FR,
        [
            (
                "2.6.6. Récupération avec la commande dpkg",
                "1.6.4. Substitution globale avec des expressions rationnelles",
            ),
            (
                'en utilisant les options "--ignore-depends", "--force-depends" de dpkg',
                "Awk est fréquemment utilisé pour extraire des données de fichiers texte.",
            ),
            (
                "en utilisant les options « --ignore-depends », « --force-depends » de dpkg",
                'Consultez "Bref historique de Debian"',
            ),
            (
                "Si la tentative d'installation d'un paquet de cette manière échoue",
                "Awk est fréquemment utilisé pour extraire des données",
            ),
            (
                "vous pouvez, en dernier ressort, outrepasser les dépendances",
                "Consultez «\xa0Bref historique de Debian\xa0» pour la dernière Debian leadership history.",
            ),
            ("2.6.6. Récupération avec la commande dpkg Si la tentative", "Awk est fréquemment utilisé"),
            ("outrepasser les dépendances en utilisant les options «--ignore-depends»", "1.6.4. Substitution globale"),
            ("en raison de la violation de certaines dépendances", "Consultez « Bref historique de Debian »"),
        ],
    ),
    _quoted(
        "fr",
        True,
        _DPKG_FR,
        [
            ("en utilisant l'option --force-all de dpkg", "Awk est fréquemment utilisé pour extraire des données"),
            ("2.6.6. Récupération avec dpkg", "1.6.4. Substitution globale avec des expressions rationnelles"),
            ("vous pouvez outrepasser les dépendances en dernier ressort", "Awk est souvent utilisé"),
            ("2.6.6. Récupération avec la commande dpkg", ""),
            (
                "1.6.4. Substitution globale avec des expressions rationnelles",
                "2.6.6. Récupération avec la commande dpkg",
            ),
            ("Si l'installation d'un paquet échoue", "Consultez «\xa0Bref historique de Debian\xa0»"),
            ("les options --ignore-depends et --force-depends de dpkg", "Awk est fréquemment utilisé"),
            ("2.6.6. Récupération avec la commande apt", "1.6.4. Substitution globale"),
        ],
    ),
    _quoted(
        "es",
        False,
        _FILES_ES,
        [
            ("1.2. Sistema de archivos tipo Unix", "2.3.5. Actualización mayor del sistema"),
            (
                "Todos los archivos y directorios están ordenados en un gran árbol que tiene como raíz «/».",
                "2. Realice una copia de respaldo (o de seguridad) completa",
            ),
            (
                'Todos los archivos y directorios están ordenados en un gran árbol que tiene como raíz "/".',
                '1. Lea las anterior "Release Notes".',
            ),
            (
                "los archivos se organizan en directorios.",
                "Usted debería ser precavido cuando realiza un actualización completa",
            ),
            (
                "En GNU/Linux y otros sistemas operativos tipo Unix,  los archivos se organizan en directorios.",
                "usar el sentido común.",
            ),
            ("1.2. Sistema de archivos tipo Unix En GNU/Linux", "2.3.5. Actualización mayor del sistema Usted debería"),
            (
                "Se le llama árbol porque si se dibuja el sistema de archivos, parece un árbol pero cabeza abajo.",
                "(especialmente los datos y las configuraciones).",
            ),
            ("que tiene como raíz « / »", "1. Lea las anterior «Release Notes«."),
        ],
    ),
    _quoted(
        "es",
        True,
        _FILES_ES,
        [
            (
                "Todos los archivos están ordenados en un árbol cuya raíz es «/».",
                "2.3.5. Actualización mayor del sistema",
            ),
            ("1.2. Sistema de ficheros tipo Unix", "2.3.5. Actualización mayor del sistema"),
            ("los archivos se organizan en carpetas.", "usar el sentido común."),
            ("1.2. Sistema de archivos tipo Unix", ""),
            ("2.3.5. Actualización mayor del sistema", "1.2. Sistema de archivos tipo Unix"),
            ("En Linux los archivos se organizan en directorios.", "Realice una copia de respaldo completa"),
            ("1.2. Sistema de archivos tipo Unix", "1. Lea las Release Notes anteriores."),
            ("parece un árbol al revés", "2.3.5. Actualización mayor del sistema"),
        ],
    ),
)

#: Every family, by name, as `scripts/lint_tables.py` prints them.
FAMILIES = {
    "two questions in one": TWO_QUESTIONS,
    "meta references": META_REFERENCES,
    "comparison answers": COMPARISON_ANSWERS,
    "binary answers": BINARY_ANSWERS,
    "opening pronouns": OPENING_PRONOUNS,
    "prompt examples": PROMPT_EXAMPLES,
    "evidence quotes": EVIDENCE,
}


def refused(case: Case, family: Family) -> bool:
    """Whether one of the family's rules refuses the case."""
    construction = {
        "compared_entities": list(case.compared),
        "hidden_entities": [{"entity": entity, "chunk_id": "c1"} for entity in case.hidden],
    }
    draft = {"question": case.question, "answer": case.answer, "origin": "generate", "revision": 0,
             "construction": construction}  # fmt: skip
    supporting = [(f"s{index}", text) for index, text in enumerate(case.chunks)] if case.quotes else []
    if case.quotes:
        draft["evidence"] = [{"chunk_id": f"s{index}", "quote": quote} for index, quote in case.quotes]
    findings = lint_problems(
        draft,  # type: ignore[arg-type]
        question_type=case.question_type,
        binary=case.binary,
        hops=case.hops,
        max_question_words=40,
        max_answer_words=20,
        language=case.language,
        chunks=case.chunks,
        supporting=supporting,
    )  # fmt: skip
    return any(rule in family.rules for rule, _ in findings)
