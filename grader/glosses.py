"""A gloss, in the student's language, of an English error the student's code raised.

minitape speaks TensorFlow's English (``Incompatible shapes: [2] vs. [3] [Op:AddV2]``), and so
does Python.  A report in Spanish, Portuguese or Russian quotes the error as raised (it is what
the student will search for) and follows it with what it means, in their language.  English
reports get no gloss: the error is already in the student's language.

``gloss(ename, evalue, lang)`` returns the gloss ("" when there is none); the most specific
pattern wins (a known message), then the exception's class.
"""

from __future__ import annotations

import re

# (exception class or None for any, pattern on the message, {lang: text with {0}, {1}... groups})
_BY_MESSAGE: list[tuple[str | None, re.Pattern, dict[str, str]]] = [
    (None, re.compile(r"Incompatible shapes: \[([^\]]*)\] vs\. \[([^\]]*)\]"), {
        "es": "los formatos [{0}] y [{1}] no encajan en esta operación: no son iguales ni se "
              "pueden ampliar uno al otro (broadcasting)",
        "pt": "os formatos [{0}] e [{1}] não combinam nesta operação: não são iguais nem podem "
              "ser ampliados um para o outro (broadcasting)",
        "ru": "формы [{0}] и [{1}] несовместимы в этой операции: они не равны и не приводятся "
              "друг к другу (broadcasting)",
    }),
    (None, re.compile(r"cannot compute (\w+) as input #\d+\(zero-based\) was expected to be a (\w+) "
                      r"tensor but is a (\w+) tensor"), {
        "es": "la operación {0} recibió tensores de tipos distintos ({1} y {2}); conviértelos al "
              "mismo tipo con tf.cast",
        "pt": "a operação {0} recebeu tensores de tipos diferentes ({1} e {2}); converta-os para o "
              "mesmo tipo com tf.cast",
        "ru": "операция {0} получила тензоры разных типов ({1} и {2}); приведите их к одному типу "
              "с помощью tf.cast",
    }),
    (None, re.compile(r"non-persistent GradientTape can only be used to compute one set of gradients"), {
        "es": "una cinta no persistente solo calcula gradientes una vez; usa "
              "tf.GradientTape(persistent=True) para pedir varios",
        "pt": "uma fita não persistente só calcula gradientes uma vez; use "
              "tf.GradientTape(persistent=True) para pedir vários",
        "ru": "неперсистентная лента вычисляет градиенты только один раз; для нескольких вызовов "
              "используйте tf.GradientTape(persistent=True)",
    }),
    ("NameError", re.compile(r"name '([^']+)' is not defined"), {
        "es": "el nombre {0} no está definido (¿falta ejecutar una celda o hay un error al escribirlo?)",
        "pt": "o nome {0} não está definido (falta executar uma célula ou há um erro de digitação?)",
        "ru": "имя {0} не определено (не выполнена ячейка или опечатка?)",
    }),
]

_BY_CLASS: dict[str, dict[str, str]] = {
    "InvalidArgumentError": {
        "es": "el motor rechazó los argumentos de una operación (formas o tipos que no encajan)",
        "pt": "o motor recusou os argumentos de uma operação (formatos ou tipos que não combinam)",
        "ru": "движок отклонил аргументы операции (несовместимые формы или типы)",
    },
    "TypeError": {
        "es": "un valor de un tipo que esta operación no acepta",
        "pt": "um valor de um tipo que esta operação não aceita",
        "ru": "значение типа, который эта операция не принимает",
    },
    "ValueError": {
        "es": "un valor que esta operación no acepta",
        "pt": "um valor que esta operação não aceita",
        "ru": "значение, которое эта операция не принимает",
    },
    "AttributeError": {
        "es": "el objeto no tiene ese atributo o método",
        "pt": "o objeto não tem esse atributo ou método",
        "ru": "у объекта нет такого атрибута или метода",
    },
    "IndexError": {
        "es": "un índice fuera del rango",
        "pt": "um índice fora do intervalo",
        "ru": "индекс вне допустимого диапазона",
    },
    "KeyError": {
        "es": "una clave que no está en el diccionario",
        "pt": "uma chave que não está no dicionário",
        "ru": "ключа нет в словаре",
    },
    "ZeroDivisionError": {
        "es": "una división por cero",
        "pt": "uma divisão por zero",
        "ru": "деление на ноль",
    },
    "RecursionError": {
        "es": "la función se llama a sí misma sin fin",
        "pt": "a função chama a si mesma sem fim",
        "ru": "функция бесконечно вызывает саму себя",
    },
}


def gloss(ename: str, evalue: str, lang: str) -> str:
    """What the error means, in ``lang``; "" in English or when nothing is known about it."""
    if lang == "en":
        return ""
    for cls, pattern, texts in _BY_MESSAGE:
        if cls not in (None, ename) or lang not in texts:
            continue
        match = pattern.search(evalue or "")
        if match:
            return texts[lang].format(*match.groups())
    return _BY_CLASS.get(ename, {}).get(lang, "")
