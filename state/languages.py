"""Languages as records and prompts name them: ISO 639-1 codes, English names, yes/no words.

A sample's language is an ISO 639-1 code ("de"). Prompts name it in English ("German"); a yes/no
question's answer is the language's own word for yes or no ("Ja", "Nein"), never the English one.
"""

from __future__ import annotations

import re
from typing import Literal

#: The answer a yes/no question has, whatever the language's words for it.
Polarity = Literal["yes", "no"]

#: English names of the languages a sample can be written in (the codes the detector returns).
LANGUAGE_NAMES = {
    "af": "Afrikaans", "am": "Amharic", "an": "Aragonese", "ar": "Arabic", "as": "Assamese", "az": "Azerbaijani",
    "ba": "Bashkir", "be": "Belarusian", "bg": "Bulgarian", "bn": "Bengali", "br": "Breton", "bs": "Bosnian",
    "ca": "Catalan", "cs": "Czech", "cy": "Welsh", "da": "Danish", "de": "German", "dz": "Dzongkha", "el": "Greek",
    "en": "English", "eo": "Esperanto", "es": "Spanish", "et": "Estonian", "eu": "Basque", "fa": "Persian",
    "fi": "Finnish", "fo": "Faroese", "fr": "French", "fy": "Western Frisian", "ga": "Irish", "gd": "Scottish Gaelic",
    "gl": "Galician", "gu": "Gujarati", "ha": "Hausa", "he": "Hebrew", "hi": "Hindi", "hr": "Croatian",
    "ht": "Haitian Creole", "hu": "Hungarian", "hy": "Armenian", "id": "Indonesian", "ig": "Igbo", "is": "Icelandic",
    "it": "Italian", "ja": "Japanese", "jv": "Javanese", "ka": "Georgian", "kk": "Kazakh", "km": "Khmer",
    "kn": "Kannada", "ko": "Korean", "ku": "Kurdish", "ky": "Kyrgyz", "la": "Latin", "lb": "Luxembourgish",
    "lg": "Ganda", "ln": "Lingala", "lo": "Lao", "lt": "Lithuanian", "lv": "Latvian", "mg": "Malagasy",
    "mk": "Macedonian", "ml": "Malayalam", "mn": "Mongolian", "mr": "Marathi", "ms": "Malay", "mt": "Maltese",
    "my": "Burmese", "nb": "Norwegian Bokmål", "ne": "Nepali", "nl": "Dutch", "nn": "Norwegian Nynorsk",
    "no": "Norwegian", "oc": "Occitan", "om": "Oromo", "or": "Odia", "pa": "Punjabi", "pl": "Polish", "ps": "Pashto",
    "pt": "Portuguese", "qu": "Quechua", "ro": "Romanian", "ru": "Russian", "rw": "Kinyarwanda", "sa": "Sanskrit",
    "se": "Northern Sami", "si": "Sinhala", "sk": "Slovak", "sl": "Slovenian", "sn": "Shona", "so": "Somali",
    "sq": "Albanian", "sr": "Serbian", "st": "Southern Sotho", "sv": "Swedish", "sw": "Swahili", "ta": "Tamil",
    "te": "Telugu", "tg": "Tajik", "th": "Thai", "tk": "Turkmen", "tl": "Tagalog", "tr": "Turkish", "tt": "Tatar",
    "ug": "Uyghur", "uk": "Ukrainian", "ur": "Urdu", "uz": "Uzbek", "vi": "Vietnamese", "vo": "Volapük",
    "wa": "Walloon", "xh": "Xhosa", "yo": "Yoruba", "zh": "Chinese", "zu": "Zulu",
}  # fmt: skip

#: The language of a sample whose text shows none (and of records that do not say).
DEFAULT_LANGUAGE = "en"

#: Each language's words for yes and no: the first of each is how a record writes the answer, the others
#: are read as the same answer (case, accents on "si", and a trailing full stop aside).
YES_NO: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "en": (("Yes",), ("No",)),
    "de": (("Ja",), ("Nein",)),
    "fr": (("Oui",), ("Non",)),
    "es": (("Sí", "Si"), ("No",)),
    "it": (("Sì", "Si"), ("No",)),
    "pt": (("Sim",), ("Não", "Nao")),
    "ca": (("Sí", "Si"), ("No",)),
    "nl": (("Ja",), ("Nee",)),
    "sv": (("Ja",), ("Nej",)),
    "da": (("Ja",), ("Nej",)),
    "no": (("Ja",), ("Nei",)),
    "nb": (("Ja",), ("Nei",)),
    "nn": (("Ja",), ("Nei",)),
    "fi": (("Kyllä",), ("Ei",)),
    "pl": (("Tak",), ("Nie",)),
    "cs": (("Ano",), ("Ne",)),
    "sk": (("Áno",), ("Nie",)),
    "ro": (("Da",), ("Nu",)),
    "hu": (("Igen",), ("Nem",)),
    "ru": (("Да",), ("Нет",)),
    "uk": (("Так",), ("Ні",)),
    "el": (("Ναι",), ("Όχι",)),
    "tr": (("Evet",), ("Hayır",)),
    "ja": (("はい",), ("いいえ",)),
    "zh": (("是",), ("否", "不是")),
    "ko": (("예", "네"), ("아니요", "아니오")),
    "ar": (("نعم",), ("لا",)),
    "he": (("כן",), ("לא",)),
    "hi": (("हाँ", "हां"), ("नहीं",)),
    "id": (("Ya",), ("Tidak",)),
    "vi": (("Có",), ("Không",)),
}

_ISO_639_1 = re.compile(r"^[a-z]{2}$")


def language_name(code: str) -> str:
    """The English name of a language code ("de" -> "German"); the code itself when unknown."""
    return LANGUAGE_NAMES.get(code, code)


def known_language(code: str) -> bool:
    return code in LANGUAGE_NAMES


def check_language_code(code: str) -> str | None:
    """What is wrong with a language code asked for, or None: an ISO 639-1 code triad can name."""
    if not _ISO_639_1.match(code) or code not in LANGUAGE_NAMES:
        return f"{code!r} is not an ISO 639-1 language code triad knows (e.g. en, de, fr, es, ja)"
    return None


def answer_words(language: str) -> tuple[str, str] | None:
    """How a record writes Yes and No in `language` ("Ja", "Nein"); None for a language without a table."""
    words = YES_NO.get(language)
    return (words[0][0], words[1][0]) if words else None


def _bare_word(answer: str) -> str:
    return answer.strip().strip("\"'“”‘’«»「」*").rstrip(".!。！").strip().casefold()


def polarity(answer: str, language: str) -> Polarity | None:
    """ "yes" or "no" for an answer that is one of `language`'s words for them, in any case; else None."""
    words = YES_NO.get(language)
    if words is None:
        return None
    word = _bare_word(answer)
    if word in (w.casefold() for w in words[0]):
        return "yes"
    if word in (w.casefold() for w in words[1]):
        return "no"
    return None


#: What stands between a leading yes/no word and its explanation: a mark ("Yes, because ...", "No - ...", "Oui :
#: ...") or an opening parenthesis ("Nein (...)"); a bare space does not ("Yes and no", "Non seulement ...").
_AFTER_WORD = re.compile(r"^\s*(?:[,.;:!—–]|-(?!\w))[\s,.;:!—–-]*|^\s*(?=\()")
#: An explanation that takes the word back: "Yes, but ...", "Ja, aber ...", "Oui, mais non".
_HEDGE = re.compile(r"^(?:but|although|though|aber|jedoch|allerdings|mais|pourtant|pero|sino|aunque)\b", re.I)


def leading_polarity(answer: str, language: str) -> tuple[Polarity | None, str]:
    """A yes/no answer that leads with the language's word and explains it ("Yes, because 1962 is earlier",
    "ja, 1962", "Non (1998 contre 1999)"): the word's polarity and the explanation; (None, answer) otherwise.

    A word that merely starts with one ("Nonante", "Yesterday", "No-fly") leads with none."""
    exact = polarity(answer, language)
    if exact is not None:
        return exact, ""
    words = YES_NO.get(language)
    text = answer.strip().lstrip("\"'“”‘’«»「」*")
    for found, options in (("yes", words[0] if words else ()), ("no", words[1] if words else ())):
        for word in options:
            rest = text[len(word) :]
            if text[: len(word)].casefold() == word.casefold() and (after := _AFTER_WORD.match(rest)):
                explanation = rest[after.end() :].strip().strip("\"'“”‘’«»」*")
                opposite = "no" if found == "yes" else "yes"
                taken_back = _HEDGE.match(explanation) or polarity(explanation.split()[0], language) == opposite
                if explanation and not taken_back:
                    return found, explanation  # type: ignore[return-value]
    return None, answer.strip()


def written_answer(answer: str, language: str) -> str:
    """A yes/no answer as a record keeps it: the language's own word ("ja." -> "Ja", "Yes, because ..." ->
    "Yes"); others stripped."""
    found, _ = leading_polarity(answer, language)
    words = answer_words(language)
    if found is None or words is None:
        return answer.strip()
    return words[0] if found == "yes" else words[1]
