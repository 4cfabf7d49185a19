"""What makes a chunk a procedure, cheaply, in English, German, French and Spanish.

A procedural question (the steps of a task) is written only from a chunk that holds a procedure. The test
costs no model call. Chunk text keeps list structure (an ordered item as "1. ", a bulleted one as "- ",
see graph/ingestion), and a chunk holds a procedure when it has one of:
- numbered steps: a line that starts step 1 and one that starts step 2, numbered ("1.", "2)") or named
  ("Step 1", "Schritt 2", "Étape 1", "Paso 2");
- bulleted steps: two items in a row that each open with an instruction ("- Stop the server",
  "- Führen Sie ... aus", "- Exécutez ...", "- Ejecute ..."); a list of parameters or names is no procedure;
- sequenced prose: a sentence that opens with "First" followed by an instruction, and a later one that
  opens with "Then", "Next" or "Finally" ("Zuerst ... Dann", "D'abord ... Ensuite", "Primero ... Luego").

Each form is a regular expression written in the syntax Python's `re` and PostgreSQL's `~*` share (no
`\\b` or `\\w`, whose meanings differ: word edges are spelled out), so the same test runs here and in the
database, which draws procedural seeds there (`graph.store.usable`).
"""

from __future__ import annotations

import re

#: Words that name a step.
STEP_WORDS = ("step", "schritt", "étape", "Étape", "etape", "paso", "passo")

#: The instruction verbs a bulleted step or a sequenced sentence opens with, per language: imperatives and the
#: infinitives manuals write steps with. German steps are recognised by their form ("Starten Sie").
INSTRUCTIONS = {
    "en": (
        "run", "install", "stop", "start", "restart", "create", "set", "edit", "open", "close", "add", "remove",
        "delete", "copy", "move", "rename", "configure", "enable", "disable", "check", "verify", "make", "use",
        "type", "enter", "select", "choose", "click", "download", "upload", "change", "write", "mount", "unmount",
        "connect", "disconnect", "log", "sign", "build", "compile", "initialize", "initialise", "load", "unpack",
        "extract", "back", "restore", "update", "upgrade", "replace", "insert", "execute", "launch", "shut",
        "reboot", "press", "navigate", "go", "save", "apply", "ensure", "wait", "repeat", "uncomment", "comment",
        "specify", "define", "register", "grant", "revoke", "drop", "reload", "test", "prepare", "place", "put",
        "follow", "obtain", "get", "fetch", "clone", "import", "export", "tell", "point", "switch", "turn",
    ),
    "fr": (
        "installez", "exécutez", "lancez", "arrêtez", "démarrez", "redémarrez", "créez", "ouvrez", "fermez",
        "ajoutez", "supprimez", "copiez", "déplacez", "renommez", "configurez", "activez", "désactivez",
        "vérifiez", "utilisez", "tapez", "saisissez", "sélectionnez", "choisissez", "cliquez", "téléchargez",
        "modifiez", "éditez", "écrivez", "montez", "démontez", "connectez", "compilez", "chargez", "sauvegardez",
        "restaurez", "mettez", "remplacez", "appuyez", "allez", "enregistrez", "appliquez", "assurez", "attendez",
        "répétez", "définissez", "indiquez", "faites", "entrez", "passez", "installer", "exécuter", "lancer",
        "arrêter", "démarrer", "redémarrer", "créer", "ouvrir", "ajouter", "supprimer", "copier", "configurer",
        "activer", "vérifier", "utiliser", "saisir", "sélectionner", "cliquer", "télécharger", "modifier",
        "éditer", "monter", "connecter", "compiler", "charger", "sauvegarder", "restaurer", "mettre",
        "remplacer", "enregistrer", "appliquer", "attendre", "définir", "entrer",
    ),
    "es": (
        "instale", "ejecute", "inicie", "detenga", "reinicie", "cree", "abra", "cierre", "añada", "agregue",
        "elimine", "borre", "copie", "mueva", "renombre", "configure", "active", "desactive", "compruebe",
        "verifique", "use", "utilice", "escriba", "introduzca", "seleccione", "elija", "haga", "descargue",
        "cambie", "modifique", "edite", "monte", "desmonte", "conecte", "compile", "cargue", "guarde",
        "restaure", "actualice", "sustituya", "pulse", "vaya", "aplique", "asegúrese", "espere", "repita",
        "defina", "indique", "instala", "ejecuta", "inicia", "detén", "reinicia", "crea", "abre", "añade",
        "elimina", "copia", "configura", "activa", "comprueba", "usa", "escribe", "selecciona", "descarga",
        "cambia", "edita", "monta", "conecta", "guarda", "actualiza", "pulsa", "instalar", "ejecutar", "iniciar",
        "detener", "reiniciar", "crear", "abrir", "añadir", "agregar", "eliminar", "copiar", "configurar",
        "activar", "comprobar", "verificar", "usar", "utilizar", "escribir", "seleccionar", "descargar",
        "cambiar", "modificar", "editar", "montar", "conectar", "compilar", "cargar", "guardar", "restaurar",
        "actualizar", "sustituir", "pulsar", "aplicar", "esperar", "definir",
    ),
}  # fmt: skip

#: Sentence openings that start a sequence, and those that go on with it.
SEQUENCE_FIRST = (
    "first", "first of all", "to begin", "to start", "start by", "begin by", "zuerst", "zunächst", "als erstes",
    "erstens", "d'abord", "tout d'abord", "premièrement", "commencez par", "en premier lieu", "primero",
    "en primer lugar", "primeramente", "para empezar", "comience por", "empiece por",
)  # fmt: skip
SEQUENCE_LATER = (
    "then", "next", "after that", "afterwards", "finally", "lastly", "dann", "danach", "anschließend",
    "schließlich", "zum schluss", "abschließend", "zweitens", "ensuite", "puis", "enfin", "finalement",
    "deuxièmement", "luego", "después", "a continuación", "finalmente", "por último", "en segundo lugar",
)  # fmt: skip

#: What cannot follow "First" in an instruction: it opens a description ("First, the planner ...").
_DESCRIBING = (
    "the", "a", "an", "it", "this", "that", "these", "we", "they", "there", "he", "she", "its", "der", "die", "das",
    "ein", "eine", "es", "wir", "man", "le", "la", "les", "l'", "un", "une", "il", "elle", "on", "nous", "ce",
    "el", "los", "las", "uno", "una", "se", "nosotros", "este", "esta", "some", "all", "each", "every", "einige",
    "alle", "jede", "jeder", "quelques", "tous", "toutes", "chaque", "algunas", "algunos", "unos", "unas", "todos",
    "todas", "cada", "was", "were", "is", "are", "came", "had", "war", "waren", "ist", "sind", "wird", "wurde",
    "kam", "kamen", "gab", "hatte", "était", "est", "fut", "vint", "c'était", "fue", "era", "es", "hubo", "llegó",
    "vino", "había",
)  # fmt: skip

#: "<verb>en Sie" that asks nothing of the reader: "können Sie" (you can), "haben Sie" (you have).
_GERMAN_MODALS = "können|müssen|sollen|dürfen|wollen|möchten|werden|haben|sind|brauchen|finden"

# A word ends at a space, a punctuation mark or the end of the text.
_END = r"(?=[ \t\n,.:;!?)]|$)"
_LINE = r"(^|\n)[ \t]*"
_SENTENCE = r"(^|[.!?:][ \t\n]+|\n[ \t]*)"


def _any(words: tuple[str, ...]) -> str:
    # A word that opens with a letter outside ASCII is also listed capitalised: PostgreSQL's `~*` folds the case
    # of ASCII letters only where the database's locale is C ("Éditez", "Ändern").
    spelled = {
        form for word in words for form in (word, word[:1].upper() + word[1:] if not word[:1].isascii() else word)
    }
    escaped = (re.escape(word).replace("\\ ", "[ \t]+").replace("'", "['’]") for word in spelled)
    return "|".join(sorted(escaped, key=lambda word: (-len(word), word)))


def step_pattern(number: int) -> str:
    """A line that starts step `number`."""
    return rf"{_LINE}({number}[.)]|({'|'.join(STEP_WORDS)})[ \t]+{number}[.:)]?)([ \t]|\n|$)"


def _bulleted_step() -> str:
    """A bulleted item that opens with an instruction: a listed verb, or German's "<verb>en Sie"."""
    verbs = _any(tuple(verb for words in INSTRUCTIONS.values() for verb in words))
    # "- Start time: 10:00" is a label, not an instruction: the verb is not followed by a word and a colon.
    label = r"(?![ \t]+[^ \t\n]+:)"
    german = rf"(?!({_GERMAN_MODALS})[ \t])[^ \t\n]+(en|ern|eln)[ \t]+Sie{_END}"
    return rf"[-*•][ \t]+(({verbs}){_END}{label}|{german})"


def _sequence() -> str:
    """ "First <instruction> ... Then ...": the sequence's openings at sentence starts, in order."""
    opening = rf"{_SENTENCE}({_any(SEQUENCE_FIRST)})[ \t]*,?[ \t]+(?!({_any(_DESCRIBING)}){_END}|[ld]['’])"
    return rf"{opening}.*{_SENTENCE}({_any(SEQUENCE_LATER)}){_END}"


#: Numbered steps: both must match.
NUMBERED_PATTERNS = (step_pattern(1), step_pattern(2))
#: Two bulleted steps in a row (blank lines between them allowed).
BULLETED_PATTERN = rf"{_LINE}{_bulleted_step()}[^\n]*(\n[ \t]*)+{_bulleted_step()}"
#: A sequence in prose.
SEQUENCE_PATTERN = _sequence()

#: Cheap conditions each form needs, tested first where the full pattern is costly (PostgreSQL tries the
#: bulleted pattern's many verbs at every position): a bulleted line, a sequence's opening word.
BULLETED_HINT = rf"{_LINE}[-*•][ \t]"
SEQUENCE_HINT = rf"({_any(SEQUENCE_FIRST)})"

_NUMBERED = tuple(re.compile(pattern, re.IGNORECASE) for pattern in NUMBERED_PATTERNS)
_BULLETED = re.compile(BULLETED_PATTERN, re.IGNORECASE)
_SEQUENCE = re.compile(SEQUENCE_PATTERN, re.IGNORECASE | re.DOTALL)


def procedure_form(text: str) -> str | None:
    """Which form of procedure `text` holds ("numbered", "bulleted", "sequence"), or None."""
    if all(pattern.search(text) for pattern in _NUMBERED):
        return "numbered"
    if _BULLETED.search(text):
        return "bulleted"
    if _SEQUENCE.search(text):
        return "sequence"
    return None


def looks_procedural(text: str) -> bool:
    """Whether `text` holds a procedure: numbered steps, bulleted steps or a sequence in prose."""
    return procedure_form(text) is not None
