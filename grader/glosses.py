"""A gloss, in the student's language, of an English error the student's code raised.

minitape speaks TensorFlow's English (``Incompatible shapes: [2] vs. [3] [Op:AddV2]``), and so
does Python.  A report in Spanish, Portuguese or Russian quotes the error as raised (it is what
the student will search for) and follows it with what it means, in their language.  English
reports get no gloss: the error is already in the student's language (each English text below
is empty on purpose).

``gloss(ename, evalue, lang)`` returns the gloss ("" when there is none); the most specific
pattern wins (a known message), then the exception's class.  The texts are one catalog in the
course's shape (``course_lang.Catalog``, key-major; docs/languages.md): ``gloss.<message>`` with
the pattern's named groups as fields, and ``gloss.class.<exception class>``.
"""

from __future__ import annotations

import re

from course_lang import Catalog

MESSAGES: dict[str, dict[str, str]] = {
    "gloss.incompatible_shapes": {
        "en": "",
        "es": "las formas [{left}] y [{right}] no encajan en esta operación: no son iguales ni "
              "se puede expandir una a la otra (broadcasting)",
        "pt": "os formatos [{left}] e [{right}] não combinam nesta operação: não são iguais nem "
              "podem ser expandidos um para o outro (broadcasting)",
        "ru": "формы [{left}] и [{right}] несовместимы в этой операции: они не равны и ни одна "
              "не транслируется в другую (broadcasting)",
    },
    "gloss.dtype_mismatch": {
        "en": "",
        "es": "la operación {op} recibió tensores de tipos distintos ({expected} y {got}); "
              "conviértelos al mismo tipo con tf.cast",
        "pt": "a operação {op} recebeu tensores de tipos diferentes ({expected} e {got}); "
              "converta-os para o mesmo tipo com tf.cast",
        "ru": "операция {op} получила тензоры разных типов ({expected} и {got}); приведите их к "
              "одному типу с помощью tf.cast",
    },
    "gloss.non_persistent": {
        "en": "",
        "es": "una cinta no persistente solo calcula gradientes una vez; usa "
              "tf.GradientTape(persistent=True) para pedir varios",
        "pt": "uma fita não persistente só calcula gradientes uma vez; use "
              "tf.GradientTape(persistent=True) para pedir vários",
        "ru": "неперсистентная лента вычисляет градиенты только один раз; для нескольких вызовов "
              "используйте tf.GradientTape(persistent=True)",
    },
    "gloss.name_error": {
        "en": "",
        "es": "el nombre {name} no está definido (¿falta ejecutar una celda o hay un error al "
              "escribirlo?)",
        "pt": "o nome {name} não está definido (falta executar uma célula ou há um erro de "
              "digitação?)",
        "ru": "имя {name} не определено (не выполнена ячейка или опечатка?)",
    },
    "gloss.none_operand": {
        "en": "",
        "es": "uno de los valores es None: casi siempre un gradiente que no llegó (la lección 3 "
              "explica por qué un gradiente sale None)",
        "pt": "um dos valores é None: quase sempre um gradiente que não chegou (a lição 3 "
              "explica por que um gradiente sai None)",
        "ru": "одно из значений равно None: почти всегда это градиент, который не дошёл (почему "
              "градиент бывает равен None, объясняет урок 3)",
    },
    "gloss.class.InvalidArgumentError": {
        "en": "",
        "es": "el motor rechazó los argumentos de una operación (formas o tipos que no encajan)",
        "pt": "o motor recusou os argumentos de uma operação (formatos ou tipos que não combinam)",
        "ru": "движок отклонил аргументы операции (несовместимые формы или типы)",
    },
    "gloss.class.TypeError": {
        "en": "",
        "es": "un valor de un tipo que esta operación no acepta",
        "pt": "um valor de um tipo que esta operação não aceita",
        "ru": "значение типа, который эта операция не принимает",
    },
    "gloss.class.ValueError": {
        "en": "",
        "es": "un valor que esta operación no acepta",
        "pt": "um valor que esta operação não aceita",
        "ru": "значение, которое эта операция не принимает",
    },
    "gloss.class.AttributeError": {
        "en": "",
        "es": "el objeto no tiene ese atributo o método",
        "pt": "o objeto não tem esse atributo ou método",
        "ru": "у объекта нет такого атрибута или метода",
    },
    "gloss.class.IndexError": {
        "en": "",
        "es": "un índice fuera del rango",
        "pt": "um índice fora do intervalo",
        "ru": "индекс вне допустимого диапазона",
    },
    "gloss.class.KeyError": {
        "en": "",
        "es": "una clave que no está en el diccionario",
        "pt": "uma chave que não está no dicionário",
        "ru": "ключа нет в словаре",
    },
    "gloss.class.ZeroDivisionError": {
        "en": "",
        "es": "una división por cero",
        "pt": "uma divisão por zero",
        "ru": "деление на ноль",
    },
    "gloss.class.RecursionError": {
        "en": "",
        "es": "la recursión superó la profundidad máxima que permite Python (demasiadas llamadas, "
              "una dentro de otra)",
        "pt": "a recursão passou do limite de profundidade do Python (chamadas demais, uma dentro "
              "da outra)",
        "ru": "слишком глубокая рекурсия, глубже допустимого в Python предела (слишком много "
              "вложенных вызовов)",
    },
}

CATALOG = Catalog("grader gloss", MESSAGES, where="grader/glosses.py")

# (exception class or None for any, pattern on the message with named groups, catalog key)
_BY_MESSAGE: list[tuple[str | None, re.Pattern, str]] = [
    (None, re.compile(r"Incompatible shapes: \[(?P<left>[^\]]*)\] vs\. \[(?P<right>[^\]]*)\]"),
     "gloss.incompatible_shapes"),
    (None, re.compile(r"cannot compute (?P<op>\w+) as input #\d+\(zero-based\) was expected to be a "
                      r"(?P<expected>\w+) tensor but is a (?P<got>\w+) tensor"), "gloss.dtype_mismatch"),
    (None, re.compile(r"non-persistent GradientTape can only be used to compute one set of gradients"),
     "gloss.non_persistent"),
    ("NameError", re.compile(r"name '(?P<name>[^']+)' is not defined"), "gloss.name_error"),
    ("TypeError", re.compile(r"unsupported operand type\(s\) for .*'NoneType'|'NoneType' object is not"),
     "gloss.none_operand"),
]


def gloss(ename: str, evalue: str, lang: str) -> str:
    """What the error means, in ``lang``; "" in English or when nothing is known about it."""
    if lang == "en":
        return ""
    for cls, pattern, key in _BY_MESSAGE:
        if cls not in (None, ename):
            continue
        match = pattern.search(evalue or "")
        if match:
            return CATALOG.t(key, lang, **match.groupdict())
    key = f"gloss.class.{ename}"
    return CATALOG.t(key, lang) if key in CATALOG else ""
