# ---
# jupyter:
#   minitape:
#     lesson: 07-build-your-own-tape
# ---

# %% [markdown] key="title" lang="en"
# # Lesson 7 · Build your own tape
#
# For six lessons you have used `tf.GradientTape` from the outside. In this one you build a
# tape yourself: a small reverse-mode automatic differentiation engine for plain Python
# numbers, in fewer than a hundred lines. Nothing about a tape is magic, and once you have written one,
# every rule of the earlier lessons (what gets recorded, why a gradient is None, why a tape
# answers once) becomes something you can explain.
#
# In this lesson you will:
#
# - write a `Value` that a tape can track, and a `Tape` that records each operation with its
#   inputs and its local gradient rule (a *VJP*);
# - give `Value` the operators `+`, `*`, `**` and the functions `sin` and `exp`;
# - write the backward pass: a loop over the tape in reverse order that adds up gradients in a
#   dictionary, and see why it must not keep them on the nodes and why it must not recurse;
# - check your tape against minitape's `tf.GradientTape` on several functions, and walk
#   minitape's own backward pass one operation at a time next to yours; <!-- claim: l07.compare-minitape -->
# - train a small neural network with nothing but your own tape.

# %% [markdown] key="title" lang="es" src="fac70c72"
# # Lección 7 · Construye tu propia cinta
#
# Durante seis lecciones has usado `tf.GradientTape` desde fuera. En esta vas a construir tu
# propia cinta: un pequeño motor de diferenciación automática en modo inverso para números
# corrientes de Python, en menos de cien líneas. Una cinta no tiene nada de mágico, y en cuanto
# hayas escrito una, cada regla de las lecciones anteriores (qué se graba, por qué un gradiente
# sale `None`, por qué una cinta responde una sola vez) pasa a ser algo que sabes explicar.
#
# En esta lección vas a:
#
# - escribir un `Value` que una cinta pueda seguir y una `Tape` que grabe cada operación con
#   sus entradas y su regla de gradiente local (una *VJP*);
# - dotar a `Value` de los operadores `+`, `*`, `**` y de las funciones `sin` y `exp`;
# - escribir la pasada hacia atrás: un bucle que recorre la cinta en orden inverso y suma los
#   gradientes en un diccionario, y ver por qué no debe guardarlos en los nodos y por qué no
#   debe usar recursión;
# - comprobar tu cinta frente a `tf.GradientTape` de minitape con varias funciones y recorrer
#   la propia pasada hacia atrás de minitape operación a operación, junto a la tuya; <!-- claim: l07.compare-minitape -->
# - entrenar una pequeña red neuronal sin nada más que tu propia cinta.

# %% [markdown] key="title" lang="pt" src="fac70c72"
# # Lição 7 · Construa a sua própria fita
#
# Ao longo de seis lições você usou `tf.GradientTape` por fora. Nesta você vai construir uma
# fita com as próprias mãos: um pequeno motor de diferenciação automática em modo reverso para
# números comuns do Python, em menos de cem linhas. Uma fita não tem nada de mágico, e depois
# de escrever uma, cada regra das lições anteriores (o que é gravado, por que um gradiente sai
# `None`, por que uma fita responde uma vez só) vira algo que você sabe explicar.
#
# Nesta lição você vai:
#
# - escrever um `Value` que uma fita consiga acompanhar e uma `Tape` que grave cada operação
#   com suas entradas e sua regra de gradiente local (uma *VJP*);
# - dar a `Value` os operadores `+`, `*`, `**` e as funções `sin` e `exp`;
# - escrever a passagem para trás: um laço que percorre a fita na ordem inversa e soma os
#   gradientes em um dicionário, e ver por que ela não deve guardá-los nos nós nem usar
#   recursão;
# - conferir a sua fita com a `tf.GradientTape` do minitape em várias funções e percorrer a
#   própria passagem para trás do minitape operação por operação, ao lado da sua; <!-- claim: l07.compare-minitape -->
# - treinar uma pequena rede neural só com a sua própria fita.

# %% [markdown] key="title" lang="ru" src="fac70c72"
# # Урок 7 · Своя лента
#
# Шесть уроков подряд вы пользовались `tf.GradientTape` снаружи. В этом уроке вы соберёте ленту
# сами: маленький движок автоматического дифференцирования в обратном режиме для обычных чисел
# Python, меньше сотни строк кода. Ничего волшебного в ленте нет, и как только вы напишете
# свою, каждое правило из прошлых уроков (что записывается, почему градиент равен `None`,
# почему лента отвечает только один раз) станет тем, что вы можете объяснить сами.
#
# В этом уроке вы:
#
# - напишете класс `Value`, за которым может следить лента, и класс `Tape`, который записывает
#   каждую операцию вместе с её входами и правилом локального градиента (*VJP*);
# - научите `Value` операторам `+`, `*`, `**` и функциям `sin` и `exp`;
# - напишете обратный проход: цикл, который идёт по ленте в обратном порядке и накапливает
#   градиенты в словаре, — и увидите, почему их не стоит хранить в узлах и почему здесь не нужна
#   рекурсия;
# - сверите свою ленту с `tf.GradientTape` из minitape на нескольких функциях и пройдёте
#   обратный проход самого minitape по одной операции рядом со своим; <!-- claim: l07.compare-minitape -->
# - обучите небольшую нейронную сеть, не используя ничего, кроме своей ленты.

# %% [markdown] key="setup" lang="en"
# Our tape works on Python floats and needs only the `math` module. minitape (`import minitape
# as tf`) is there to compare with, and its `debugging` module gives us two instruments:
# `draw` (the graph a tape recorded) and `stepper` (its backward pass, one step at a time). <!-- claim: l07.setup -->

# %% [markdown] key="setup" lang="es" src="7e3c3007"
# Nuestra cinta trabaja con `float` de Python y solo necesita el módulo `math`. minitape
# (`import minitape as tf`) está para comparar, y su módulo `debugging` nos da dos
# instrumentos: `draw` (el grafo que grabó una cinta) y `stepper` (su pasada hacia atrás, paso
# a paso). <!-- claim: l07.setup -->

# %% [markdown] key="setup" lang="pt" src="7e3c3007"
# A nossa fita trabalha com `float` do Python e só precisa do módulo `math`. O minitape
# (`import minitape as tf`) serve para comparar, e o seu módulo `debugging` nos dá dois
# instrumentos: `draw` (o grafo que uma fita gravou) e `stepper` (a passagem para trás dela,
# passo a passo). <!-- claim: l07.setup -->

# %% [markdown] key="setup" lang="ru" src="7e3c3007"
# Наша лента работает с числами `float` в Python, и ей нужен только модуль `math`. minitape
# (`import minitape as tf`) нужен для сравнения, а его модуль `debugging` даёт нам два
# инструмента: `draw` (граф, который записала лента) и `stepper` (её обратный проход по шагам). <!-- claim: l07.setup -->

# %% key="setup-code"
import math
import sys
from collections import namedtuple

import ipywidgets as widgets
import matplotlib.pyplot as plt
import numpy as np

import minitape as tf
from lessons.figures import describe
from lessons.i18n import t
from lessons.plural import tn
from lessons.widgets import label_sliders
from minitape.debugging import draw, stepper
label_sliders()

# %% [markdown] key="plan" lang="en"
# ## The plan
#
# A tape needs three things, and we write them in this order:
#
# 1. **values that can be tracked**: a small `Value` class that holds a number;
# 2. **a record of the forward pass**: each operation, while it computes its result, appends
#    to the tape its name, its output, its inputs and a function that turns the gradient of
#    the output into gradients of the inputs;
# 3. **the backward pass**: start from the target with gradient 1 and walk the records from
#    the last to the first, applying those functions (the chain rule, one step at a time).

# %% [markdown] key="plan" lang="es" src="c9663616"
# ## El plan
#
# Una cinta necesita tres cosas, y las escribiremos en este orden:
#
# 1. **valores que se puedan seguir**: una pequeña clase `Value` que guarda un número;
# 2. **un registro de la pasada hacia adelante**: cada operación, mientras calcula su
#    resultado, añade a la cinta su nombre, su salida, sus entradas y una función que convierte
#    el gradiente de la salida en gradientes de las entradas;
# 3. **la pasada hacia atrás**: empezar por el objetivo con gradiente 1 y recorrer los
#    registros del último al primero aplicando esas funciones (la regla de la cadena, paso a
#    paso).

# %% [markdown] key="plan" lang="pt" src="c9663616"
# ## O plano
#
# Uma fita precisa de três coisas, e vamos escrevê-las nesta ordem:
#
# 1. **valores que podem ser acompanhados**: uma pequena classe `Value` que guarda um número;
# 2. **um registro da passagem para a frente**: cada operação, enquanto calcula o seu
#    resultado, acrescenta à fita o seu nome, a sua saída, as suas entradas e uma função que
#    transforma o gradiente da saída em gradientes das entradas;
# 3. **a passagem para trás**: começar pelo alvo com gradiente 1 e percorrer os registros do
#    último ao primeiro aplicando essas funções (a regra da cadeia, um passo de cada vez).

# %% [markdown] key="plan" lang="ru" src="c9663616"
# ## План
#
# Ленте нужны три вещи, и мы напишем их в таком порядке:
#
# 1. **значения, за которыми можно следить**: небольшой класс `Value`, хранящий число;
# 2. **запись прямого прохода**: каждая операция, вычисляя результат, добавляет на ленту своё
#    имя, свой выход, свои входы и функцию, которая превращает градиент выхода в градиенты
#    входов;
# 3. **обратный проход**: начать с цели, у которой градиент равен 1, и пройти записи от
#    последней к первой, применяя эти функции (цепное правило, шаг за шагом).

# %% [markdown] key="value" lang="en"
# ## Step 1 · A value
#
# A `Value` holds a float and nothing else: no gradient, no pointer to the values it was
# computed from. micrograd (Andrej Karpathy's teaching autodiff engine, under a hundred lines of
# Python) keeps both on the node, in its own `Value`; ours keeps everything the backward pass
# needs on the tape, as TensorFlow does. <!-- claim: l07.tape-keeps-records --> `constant` turns a plain number into a
# `Value`, so that `x * 2` will work as well as `x * y`.

# %% [markdown] key="value" lang="es" src="6973231a"
# ## Paso 1 · Un valor
#
# Un `Value` guarda un `float` y nada más: ni gradiente ni referencias a los valores de los
# que se calculó. micrograd (el pequeño motor didáctico de diferenciación automática de Andrej
# Karpathy, de menos de cien líneas de Python) guarda las dos cosas en el nodo, en su propio
# `Value`; el nuestro deja en la cinta todo lo que necesita la pasada hacia atrás, como hace
# TensorFlow. <!-- claim: l07.tape-keeps-records --> `constant` convierte
# un número corriente en un `Value`, para que `x * 2` funcione igual que `x * y`.

# %% [markdown] key="value" lang="pt" src="6973231a"
# ## Passo 1 · Um valor
#
# Um `Value` guarda um `float` e mais nada: nem gradiente, nem referências aos valores a partir
# dos quais foi calculado. O micrograd (o pequeno motor didático de diferenciação automática de
# Andrej Karpathy, com menos de cem linhas de Python) guarda as duas coisas no nó, no seu próprio
# `Value`; o nosso deixa na fita tudo o que a passagem para trás precisa, como faz o TensorFlow. <!-- claim: l07.tape-keeps-records --> `constant` transforma um
# número comum em um `Value`, para que `x * 2` funcione tão bem quanto `x * y`.

# %% [markdown] key="value" lang="ru" src="6973231a"
# ## Шаг 1 · Значение
#
# `Value` хранит `float` и больше ничего: ни градиента, ни ссылок на значения, из которых оно
# вычислено. В micrograd (учебном движке автоматического дифференцирования Андрея Карпаты,
# меньше сотни строк на Python) класс `Value` хранит и то и другое прямо в узле; наш же оставляет
# всё, что нужно обратному проходу, на ленте — так делает и TensorFlow. <!-- claim: l07.tape-keeps-records --> Функция `constant`
# превращает обычное число в `Value`, чтобы `x * 2` работало так же, как `x * y`.

# %% key="value-code"
class Value:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = float(value)

    def __repr__(self):
        return f"Value({self.value:.6g})"


def constant(x):
    return x if isinstance(x, Value) else Value(x)


Value(1.5), constant(2)

# %% [markdown] key="tape" lang="en"
# ## Step 2 · A tape that watches
#
# The tape is a list of records, `Record(op, output, inputs, vjp)`, plus the set of values it
# *tracks*: the ones you `watch`, and every value computed from one of them. This is
# TensorFlow's rule, "record only if watched": an operation whose inputs are all untracked is
# not written down, so constants and data cost nothing. <!-- claim: l07.record-if-watched --> Like `tf.GradientTape`, our tape is a
# context manager; `ACTIVE_TAPES` lists the tapes whose `with` block is running.
#
# The tape keeps the tracked values alive (it holds them in `tracked` and in its records): that
# is the memory a tape costs, which lesson 2 measured, and the reason `id(value)` can serve as a
# key while the tape exists.

# %% [markdown] key="tape" lang="es" src="5bc49d4d"
# ## Paso 2 · Una cinta que observa
#
# La cinta es una lista de registros, `Record(op, output, inputs, vjp)`, más el conjunto de
# valores que *sigue*: los que observas con `watch` y todo valor calculado a partir de alguno
# de ellos. Es la regla de TensorFlow, «grabar solo si se observa»: una operación cuyas
# entradas no se siguen no se graba, así que las constantes y los datos no cuestan nada. <!-- claim: l07.record-if-watched --> Como
# `tf.GradientTape`, nuestra cinta es un gestor de contexto; `ACTIVE_TAPES` lista las cintas
# cuyo bloque `with` se está ejecutando.
#
# La cinta mantiene vivos los valores que sigue (los guarda en `tracked` y en sus registros):
# esa es la memoria que cuesta una cinta, la que medimos en la lección 2, y la razón de que
# `id(value)` pueda servir de clave mientras la cinta exista.

# %% [markdown] key="tape" lang="pt" src="5bc49d4d"
# ## Passo 2 · Uma fita que observa
#
# A fita é uma lista de registros, `Record(op, output, inputs, vjp)`, mais o conjunto de
# valores que ela *acompanha*: os que você observa com `watch` e todo valor calculado a partir
# de algum deles. É a regra do TensorFlow, “gravar só o que é observado”: uma operação cujas
# entradas não são acompanhadas não é gravada, então constantes e dados não custam nada. <!-- claim: l07.record-if-watched --> Como a
# `tf.GradientTape`, a nossa fita é um gerenciador de contexto; `ACTIVE_TAPES` lista as fitas
# cujo bloco `with` está em execução.
#
# A fita mantém vivos os valores que acompanha (guarda-os em `tracked` e nos seus registros):
# essa é a memória que uma fita custa, medida na lição 2, e o motivo pelo qual `id(value)` pode
# servir de chave enquanto a fita existir.

# %% [markdown] key="tape" lang="ru" src="5bc49d4d"
# ## Шаг 2 · Лента, которая следит
#
# Лента — это список записей `Record(op, output, inputs, vjp)` и набор значений, за которыми
# она *следит*: тех, что вы передали в `watch`, и всех значений, вычисленных из них. Это
# правило TensorFlow «записывать, только если отслеживается» (*watched*): операция, ни один
# вход которой не отслеживается, на ленту не попадает, поэтому константы и данные ничего не
# стоят. <!-- claim: l07.record-if-watched --> Как и `tf.GradientTape`, наша лента — контекстный менеджер; в `ACTIVE_TAPES` лежат
# ленты, чей блок `with` сейчас выполняется.
#
# Лента удерживает в памяти отслеживаемые значения (в `tracked` и в своих записях): это и есть
# та память, которую занимает лента и которую мы измеряли в уроке 2, и поэтому `id(value)` может
# служить ключом, пока лента существует.

# %% key="tape-code"
Record = namedtuple("Record", ["op", "output", "inputs", "vjp"])

ACTIVE_TAPES = []


class Tape:
    def __init__(self):
        self.records = []
        self.tracked = {}

    def watch(self, value):
        if not isinstance(value, Value):
            raise TypeError(t("l07.watch.type", kind=type(value).__name__))
        self.tracked[id(value)] = value

    def __enter__(self):
        ACTIVE_TAPES.append(self)
        return self

    def __exit__(self, *exc_info):
        ACTIVE_TAPES.remove(self)
        return False

# %% [markdown] key="record" lang="en"
# Every operation ends with the same call: `record` writes it on each active tape that tracks
# at least one of its inputs, and from then on that tape tracks the output too.

# %% [markdown] key="record" lang="es" src="f23c60f0"
# Todas las operaciones terminan con la misma llamada: `record` la graba en cada cinta activa
# que sigue al menos una de sus entradas y, desde ese momento, esa cinta sigue también la
# salida.

# %% [markdown] key="record" lang="pt" src="f23c60f0"
# Toda operação termina com a mesma chamada: `record` a grava em cada fita ativa que acompanha
# pelo menos uma das suas entradas e, a partir daí, essa fita passa a acompanhar também a
# saída.

# %% [markdown] key="record" lang="ru" src="f23c60f0"
# Каждая операция заканчивается одним и тем же вызовом: `record` записывает её на каждую
# активную ленту, которая следит хотя бы за одним из её входов, и с этого момента лента следит
# и за выходом.

# %% key="record-code"
def record(op, output, inputs, vjp):
    for tape in ACTIVE_TAPES:
        if any(id(x) in tape.tracked for x in inputs):
            tape.records.append(Record(op, output, inputs, vjp))
            tape.tracked[id(output)] = output
    return output

# %% [markdown] key="ops" lang="en"
# ## Step 3 · Operations and their VJP rules
#
# If $z = \text{op}(a, b)$ and the backward pass already knows $g = \frac{\partial L}{\partial z}$
# for the final target $L$, the chain rule gives the gradients of the inputs:
# $\frac{\partial L}{\partial a} = g \cdot \frac{\partial z}{\partial a}$ and
# $\frac{\partial L}{\partial b} = g \cdot \frac{\partial z}{\partial b}$. The function that
# maps $g$ to these gradients is the operation's **VJP** (*vector-Jacobian product*: for
# tensors, $g$ is a vector multiplied by the operation's Jacobian; for our scalars, it is a
# plain product). TensorFlow calls it the operation's *gradient function*. <!-- claim: l07.gradient-function -->
#
# - `add`: $z = a + b$, so the VJP is $g \mapsto (g, g)$;
# - `mul`: $z = a b$, so the VJP is $g \mapsto (g\,b, g\,a)$ — it needs the input values, so the
#   `lambda` keeps `a` and `b` (the tape keeps them alive).
#
# Operator overloading (`__add__`, `__radd__` for `2 + x`, …) makes ordinary Python
# expressions go through our functions.

# %% [markdown] key="ops" lang="es" src="30e1483e"
# ## Paso 3 · Operaciones y sus reglas VJP
#
# Si $z = \text{op}(a, b)$ y la pasada hacia atrás ya conoce
# $g = \frac{\partial L}{\partial z}$ para el objetivo final $L$, la regla de la cadena da los
# gradientes de las entradas: $\frac{\partial L}{\partial a} = g \cdot \frac{\partial z}{\partial a}$
# y $\frac{\partial L}{\partial b} = g \cdot \frac{\partial z}{\partial b}$. La función que
# lleva $g$ a esos gradientes es la **VJP** de la operación (*vector-Jacobian product*,
# producto vector-jacobiano: con tensores, $g$ es un vector que se multiplica por el jacobiano
# de la operación; con nuestros escalares, es un simple producto). TensorFlow la llama la
# *función de gradiente* de la operación. <!-- claim: l07.gradient-function -->
#
# - `add`: $z = a + b$, así que la VJP es $g \mapsto (g, g)$;
# - `mul`: $z = a b$, así que la VJP es $g \mapsto (g\,b, g\,a)$; necesita los valores de las
#   entradas, por eso la `lambda` se queda con `a` y `b` (y la cinta los mantiene vivos).
#
# La sobrecarga de operadores (`__add__`, `__radd__` para `2 + x`, …) hace que las expresiones
# normales de Python pasen por nuestras funciones.

# %% [markdown] key="ops" lang="pt" src="30e1483e"
# ## Passo 3 · Operações e suas regras VJP
#
# Se $z = \text{op}(a, b)$ e a passagem para trás já conhece
# $g = \frac{\partial L}{\partial z}$ para o alvo final $L$, a regra da cadeia dá os gradientes
# das entradas: $\frac{\partial L}{\partial a} = g \cdot \frac{\partial z}{\partial a}$ e
# $\frac{\partial L}{\partial b} = g \cdot \frac{\partial z}{\partial b}$. A função que leva $g$
# a esses gradientes é a **VJP** da operação (*vector-Jacobian product*, produto
# vetor-jacobiana: com tensores, $g$ é um vetor multiplicado pela jacobiana da operação; com os
# nossos escalares, é um produto simples). O TensorFlow a chama de *função de gradiente* da
# operação. <!-- claim: l07.gradient-function -->
#
# - `add`: $z = a + b$, então a VJP é $g \mapsto (g, g)$;
# - `mul`: $z = a b$, então a VJP é $g \mapsto (g\,b, g\,a)$; ela precisa dos valores das
#   entradas, por isso a `lambda` guarda `a` e `b` (e a fita os mantém vivos).
#
# A sobrecarga de operadores (`__add__`, `__radd__` para `2 + x`, …) faz as expressões comuns
# do Python passarem pelas nossas funções.

# %% [markdown] key="ops" lang="ru" src="30e1483e"
# ## Шаг 3 · Операции и их правила VJP
#
# Пусть $z = \text{op}(a, b)$, и обратный проход уже знает $g = \frac{\partial L}{\partial z}$
# для итоговой цели $L$. Тогда цепное правило даёт градиенты входов:
# $\frac{\partial L}{\partial a} = g \cdot \frac{\partial z}{\partial a}$ и
# $\frac{\partial L}{\partial b} = g \cdot \frac{\partial z}{\partial b}$. Функция, которая
# переводит $g$ в эти градиенты, — это **VJP** операции (*vector-Jacobian product*,
# произведение вектора на якобиан: для тензоров $g$ — вектор, умножаемый на якобиан операции;
# для наших скаляров это просто произведение). В TensorFlow её называют *функцией градиента*
# операции. <!-- claim: l07.gradient-function -->
#
# - `add`: $z = a + b$, поэтому VJP — это $g \mapsto (g, g)$;
# - `mul`: $z = a b$, поэтому VJP — это $g \mapsto (g\,b, g\,a)$; ей нужны значения входов,
#   поэтому `lambda` запоминает `a` и `b` (а лента не даёт им исчезнуть).
#
# Перегрузка операторов (`__add__`, `__radd__` для `2 + x`, …) пропускает обычные выражения
# Python через наши функции.

# %% key="ops-code"
def add(a, b):
    a, b = constant(a), constant(b)
    out = Value(a.value + b.value)
    return record("add", out, (a, b), lambda g: (g, g))


def mul(a, b):
    a, b = constant(a), constant(b)
    out = Value(a.value * b.value)
    return record("mul", out, (a, b), lambda g: (g * b.value, g * a.value))


Value.__add__ = add
Value.__radd__ = lambda self, other: add(other, self)
Value.__mul__ = mul
Value.__rmul__ = lambda self, other: mul(other, self)
Value.__neg__ = lambda self: mul(self, -1.0)
Value.__sub__ = lambda self, other: add(self, -constant(other))
Value.__rsub__ = lambda self, other: add(other, -self)

# %% [markdown] key="ops-more" lang="en"
# Three more operations, each with its derivative:
#
# - `sin`: $\frac{d}{da}\sin a = \cos a$, so the VJP is $g \mapsto g \cos a$;
# - `exp`: $\frac{d}{da} e^a = e^a$ — the VJP reuses the *output*, $g \mapsto g\, e^a$;
# - `pow` with a plain number $n$: $\frac{d}{da} a^n = n\, a^{n-1}$. The exponent is not
#   differentiated, so it is not an input of the record.

# %% [markdown] key="ops-more" lang="es" src="f0e964f4"
# Tres operaciones más, cada una con su derivada:
#
# - `sin`: $\frac{d}{da}\sin a = \cos a$, así que la VJP es $g \mapsto g \cos a$;
# - `exp`: $\frac{d}{da} e^a = e^a$; la VJP reutiliza la *salida*, $g \mapsto g\, e^a$;
# - `pow` con un número corriente $n$: $\frac{d}{da} a^n = n\, a^{n-1}$. El exponente no se
#   deriva, así que no es una entrada del registro.

# %% [markdown] key="ops-more" lang="pt" src="f0e964f4"
# Mais três operações, cada uma com a sua derivada:
#
# - `sin`: $\frac{d}{da}\sin a = \cos a$, então a VJP é $g \mapsto g \cos a$;
# - `exp`: $\frac{d}{da} e^a = e^a$; a VJP reaproveita a *saída*, $g \mapsto g\, e^a$;
# - `pow` com um número comum $n$: $\frac{d}{da} a^n = n\, a^{n-1}$. O expoente não é
#   derivado, então não é uma entrada do registro.

# %% [markdown] key="ops-more" lang="ru" src="f0e964f4"
# Ещё три операции, каждая со своей производной:
#
# - `sin`: $\frac{d}{da}\sin a = \cos a$, поэтому VJP — это $g \mapsto g \cos a$;
# - `exp`: $\frac{d}{da} e^a = e^a$ — VJP повторно использует *выход*, $g \mapsto g\, e^a$;
# - `pow` с обычным числом $n$: $\frac{d}{da} a^n = n\, a^{n-1}$. По показателю степени мы не
#   дифференцируем, поэтому он не входит в запись как вход.

# %% key="ops-more-code"
def sin(x):
    x = constant(x)
    out = Value(math.sin(x.value))
    return record("sin", out, (x,), lambda g: (g * math.cos(x.value),))


def exp(x):
    x = constant(x)
    out = Value(math.exp(x.value))
    return record("exp", out, (x,), lambda g: (g * out.value,))


def power(x, n):
    x = constant(x)
    if isinstance(n, Value):
        raise TypeError(t("l07.pow.exponent"))
    out = Value(x.value**n)
    return record("pow", out, (x,), lambda g: (g * n * x.value ** (n - 1),))


Value.__pow__ = power

# %% [markdown] key="first-tape" lang="en"
# ## Recording a first function
#
# Let us record $f(x, y) = x y + \sin x$ at $x = 1.5$, $y = 0.5$, exactly as we would with
# `tf.GradientTape`. The small helper `show` prints the tape: each line is one record, with
# the names you pass for the values you know and `t1`, `t2`, … for the others.

# %% [markdown] key="first-tape" lang="es" src="5216c58d"
# ## Grabar una primera función
#
# Grabemos $f(x, y) = x y + \sin x$ en $x = 1{,}5$, con $y = 0{,}5$, tal como lo haríamos con
# `tf.GradientTape`. La pequeña función auxiliar `show` imprime la cinta: cada línea es un
# registro, con los nombres que le pases para los valores que conoces y `t1`, `t2`, … para los
# demás.

# %% [markdown] key="first-tape" lang="pt" src="5216c58d"
# ## Gravando uma primeira função
#
# Vamos gravar $f(x, y) = x y + \sin x$ em $x = 1{,}5$ e $y = 0{,}5$, exatamente como faríamos com a
# `tf.GradientTape`. A pequena função auxiliar `show` imprime a fita: cada linha é um registro,
# com os nomes que você passar para os valores que conhece e `t1`, `t2`, … para os demais.

# %% [markdown] key="first-tape" lang="ru" src="5216c58d"
# ## Запишем первую функцию
#
# Запишем $f(x, y) = x y + \sin x$ при $x = 1{,}5$ и $y = 0{,}5$ — точно так же, как сделали бы с
# `tf.GradientTape`. Небольшая вспомогательная функция `show` печатает ленту: каждая строка —
# одна запись; известные вам значения подписаны переданными именами, остальные — `t1`, `t2`, …

# %% key="first-tape-code"
def labels(tape, **names):
    label = {id(v): name for name, v in names.items()}
    for i, rec in enumerate(tape.records, start=1):
        for v in rec.inputs:
            label.setdefault(id(v), f"{v.value:g}")
        label.setdefault(id(rec.output), f"t{i}")
    return label


def show(tape, **names):
    label = labels(tape, **names)
    for rec in tape.records:
        args = ", ".join(label[id(v)] for v in rec.inputs)
        print(f"{label[id(rec.output)]} = {rec.op}({args}) -> {rec.output.value:.6g}")


x = Value(1.5)
y = Value(0.5)
with Tape() as tape:
    tape.watch(x)
    tape.watch(y)
    f = x * y + sin(x)

show(tape, x=x, y=y, f=f)

# %% [markdown] key="watch" lang="en"
# "Record only if watched" in action: the first product below runs before `a` is watched and is
# not recorded; after `watch(a)` the second product is recorded, and so is the sum that uses it
# (`c` enters that sum as an untracked input, like a constant).

# %% [markdown] key="watch" lang="es" src="fff26331"
# «Grabar solo si se observa», en acción: el primer producto de abajo se ejecuta antes de
# observar `a` y no se graba; después de `watch(a)` se graba el segundo producto, y también la
# suma que lo usa (`c` entra en esa suma como una entrada no seguida, igual que una constante).

# %% [markdown] key="watch" lang="pt" src="fff26331"
# “Gravar só o que é observado”, na prática: o primeiro produto abaixo roda antes de `a` ser
# observado e não é gravado; depois de `watch(a)` o segundo produto é gravado, e a soma que o
# usa também (`c` entra nessa soma como uma entrada não acompanhada, como uma constante).

# %% [markdown] key="watch" lang="ru" src="fff26331"
# Правило «записывать, только если отслеживается» в действии: первое произведение ниже
# вычисляется до того, как мы начали следить за `a`, и не записывается; после `watch(a)`
# записывается второе произведение, а также сумма, в которую оно входит (`c` попадает в эту
# сумму как неотслеживаемый вход, как константа).

# %% key="watch-code"
a = Value(2.0)
b = Value(3.0)
with Tape() as tape2:
    c = a * b
    tape2.watch(a)
    d = a * b
    e = d + c

print(tn("l07.recorded.plural", len(tape2.records), ops=[rec.op for rec in tape2.records]))

# %% [markdown] key="backward" lang="en"
# ## Step 4 · The backward pass
#
# Now the heart of it. `gradient(target, sources)`:
#
# 1. starts a dictionary `grads` with $\frac{\partial\,\text{target}}{\partial\,\text{target}} = 1$;
# 2. walks the records **in reverse order**. A record whose output has no gradient does not
#    lead to the target and is skipped; otherwise its VJP turns the output's gradient into one
#    contribution per input;
# 3. **adds** each contribution to what that input already has: a value used by two operations
#    receives two contributions, and the chain rule says their sum is its gradient;
# 4. returns the gradient of each source — `None` for a source the target does not depend on,
#    exactly like `tf.GradientTape` (lesson 3).
#
# Why is the reverse order of recording a valid order? Each record was appended after the
# records that produced its inputs. So, walking backwards, every record that *uses* a value
# comes before the record that *produced* it: by the time we reach a record, the gradient of
# its output is complete. No sorting is needed — the tape is already in order.

# %% [markdown] key="backward" lang="es" src="c14f9aca"
# ## Paso 4 · La pasada hacia atrás
#
# Llegamos al corazón del asunto. `gradient(target, sources)`:
#
# 1. empieza un diccionario `grads` con $\frac{\partial\,\text{target}}{\partial\,\text{target}} = 1$;
# 2. recorre los registros **en orden inverso**. Un registro cuya salida no tiene gradiente no
#    conduce al objetivo y se salta; si no, su VJP convierte el gradiente de la salida en una
#    contribución por cada entrada;
# 3. **suma** cada contribución a lo que esa entrada ya tenía: un valor que usan dos
#    operaciones recibe dos contribuciones, y la regla de la cadena dice que su gradiente es la
#    suma;
# 4. devuelve el gradiente de cada fuente: `None` para una fuente de la que el objetivo no
#    depende, exactamente como `tf.GradientTape` (lección 3).
#
# ¿Por qué el orden inverso de grabación es un orden válido? Cada registro se añadió después
# de los registros que produjeron sus entradas. Así que, al recorrer hacia atrás, todo registro
# que *usa* un valor aparece antes que el registro que lo *produjo*: cuando llegamos a un
# registro, el gradiente de su salida ya está completo. No hace falta ordenar nada: la cinta ya
# está en orden.

# %% [markdown] key="backward" lang="pt" src="c14f9aca"
# ## Passo 4 · A passagem para trás
#
# Chegamos à parte principal. `gradient(target, sources)`:
#
# 1. começa um dicionário `grads` com $\frac{\partial\,\text{target}}{\partial\,\text{target}} = 1$;
# 2. percorre os registros **na ordem inversa**. Um registro cuja saída não tem gradiente não
#    leva ao alvo e é pulado; caso contrário, a sua VJP transforma o gradiente da saída em uma
#    contribuição para cada entrada;
# 3. **soma** cada contribuição ao que essa entrada já tinha: um valor usado por duas operações
#    recebe duas contribuições, e a regra da cadeia diz que o seu gradiente é a soma;
# 4. devolve o gradiente de cada fonte: `None` para uma fonte da qual o alvo não depende,
#    exatamente como a `tf.GradientTape` (lição 3).
#
# Por que a ordem inversa da gravação é uma ordem válida? Cada registro foi acrescentado depois
# dos registros que produziram as suas entradas. Então, percorrendo de trás para a frente, todo
# registro que *usa* um valor aparece antes do registro que o *produziu*: quando chegamos a um
# registro, o gradiente da sua saída já está completo. Não é preciso ordenar nada: a fita já
# está em ordem.

# %% [markdown] key="backward" lang="ru" src="c14f9aca"
# ## Шаг 4 · Обратный проход
#
# Теперь самое главное. `gradient(target, sources)`:
#
# 1. заводит словарь `grads` с $\frac{\partial\,\text{target}}{\partial\,\text{target}} = 1$;
# 2. идёт по записям **в обратном порядке**. Запись, у выхода которой нет градиента, к цели не
#    ведёт и пропускается; иначе её VJP превращает градиент выхода во вклад для каждого входа;
# 3. **прибавляет** каждый вклад к тому, что у этого входа уже накоплено: значение, которое
#    используют две операции, получает два вклада, и по цепному правилу его градиент равен их
#    сумме;
# 4. возвращает градиент по каждому источнику — `None` для источника, от которого цель не
#    зависит, в точности как `tf.GradientTape` (урок 3).
#
# Почему обратный порядок записи — правильный порядок? Каждая запись добавлена после записей,
# которые вычислили её входы. Значит, при движении назад любая запись, которая *использует*
# значение, встречается раньше записи, которая его *вычислила*: когда мы доходим до записи,
# градиент её выхода уже полностью накоплен. Ничего сортировать не нужно — лента уже
# упорядочена.

# %% key="backward-code"
def gradient(self, target, sources):
    grads = {id(target): 1.0}
    for rec in reversed(self.records):
        g = grads.get(id(rec.output))
        if g is None:
            continue
        for v, gv in zip(rec.inputs, rec.vjp(g)):
            grads[id(v)] = grads.get(id(v), 0.0) + gv
    if isinstance(sources, Value):
        return grads.get(id(sources))
    return [grads.get(id(s)) for s in sources]


Tape.gradient = gradient

# %% [markdown] key="backward-check" lang="en"
# For $f = x y + \sin x$ we expect $\frac{\partial f}{\partial x} = y + \cos x$ and
# $\frac{\partial f}{\partial y} = x$. And a value the target never saw gets `None`:

# %% [markdown] key="backward-check" lang="es" src="77a68959"
# Para $f = x y + \sin x$ esperamos $\frac{\partial f}{\partial x} = y + \cos x$ y
# $\frac{\partial f}{\partial y} = x$. Y un valor que el objetivo nunca vio recibe `None`:

# %% [markdown] key="backward-check" lang="pt" src="77a68959"
# Para $f = x y + \sin x$ esperamos $\frac{\partial f}{\partial x} = y + \cos x$ e
# $\frac{\partial f}{\partial y} = x$. E um valor que o alvo nunca viu recebe `None`:

# %% [markdown] key="backward-check" lang="ru" src="77a68959"
# Для $f = x y + \sin x$ мы ожидаем $\frac{\partial f}{\partial x} = y + \cos x$ и
# $\frac{\partial f}{\partial y} = x$. А значение, которого цель никогда не видела, получает
# `None`:

# %% key="backward-check-code"
print(t("l07.our_tape", grads=tape.gradient(f, [x, y])))
print(t("l07.by_hand", grads=[y.value + math.cos(x.value), x.value]))
print(tape.gradient(f, Value(7.0)))

# %% [markdown] key="local-dict" lang="en"
# ## Why a dictionary local to the call?
#
# micrograd keeps each gradient on its node, in `node.grad`, and its `backward()` adds into
# those fields. Call it twice — for a second target, or by mistake in a loop — and the second
# call adds onto what the first one left: the gradients are silently wrong unless you remember
# to zero them (PyTorch's `zero_grad()` exists for the same reason). The cell below imitates
# that design with a dictionary that outlives the call; then it calls our `gradient` twice.
# Because our `grads` is created inside the call, asking twice gives the same answer — the
# reason TensorFlow returns gradients instead of storing them on variables. <!-- claim: l07.gradients-returned -->

# %% [markdown] key="local-dict" lang="es" src="602defc9"
# ## ¿Por qué un diccionario local a la llamada?
#
# micrograd guarda cada gradiente en su nodo, en `node.grad`, y su `backward()` va sumando en
# esos campos. Llámalo dos veces (para un segundo objetivo, o por error dentro de un bucle) y
# la segunda llamada suma sobre lo que dejó la primera: los gradientes salen mal sin ningún
# aviso, a menos que te acuerdes de ponerlos a cero (el `zero_grad()` de PyTorch existe por lo
# mismo). La celda de abajo imita ese diseño con un diccionario que sobrevive a la llamada;
# después llama dos veces a nuestro `gradient`. Como nuestro `grads` se crea dentro de la
# llamada, preguntar dos veces da la misma respuesta: por eso TensorFlow devuelve los
# gradientes en lugar de guardarlos en las variables. <!-- claim: l07.gradients-returned -->

# %% [markdown] key="local-dict" lang="pt" src="602defc9"
# ## Por que um dicionário local à chamada?
#
# O micrograd guarda cada gradiente no seu nó, em `node.grad`, e o seu `backward()` vai somando
# nesses campos. Chame-o duas vezes (para um segundo alvo, ou sem querer dentro de um laço) e a
# segunda chamada soma em cima do que a primeira deixou: os gradientes saem errados sem nenhum
# aviso, a menos que você se lembre de zerá-los (o `zero_grad()` do PyTorch existe pelo mesmo
# motivo). A célula abaixo imita essa abordagem com um dicionário que sobrevive à chamada; depois
# chama duas vezes o nosso `gradient`. Como o nosso `grads` é criado dentro da chamada,
# perguntar duas vezes dá a mesma resposta: é por isso que o TensorFlow devolve os gradientes
# em vez de guardá-los nas variáveis. <!-- claim: l07.gradients-returned -->

# %% [markdown] key="local-dict" lang="ru" src="602defc9"
# ## Почему словарь заводится заново при каждом вызове?
#
# micrograd хранит каждый градиент в его узле, в поле `node.grad`, и его `backward()`
# прибавляет к этим полям. Вызовите его дважды (для второй цели или по ошибке в цикле), и
# второй вызов прибавит своё к тому, что оставил первый: градиенты молча окажутся неверными,
# если не обнулить их вручную (`zero_grad()` в PyTorch существует ровно поэтому). Ячейка ниже
# имитирует такой подход со словарём, который переживает вызов, а затем дважды вызывает наш
# `gradient`. Поскольку наш `grads` создаётся внутри вызова, повторный вопрос даёт тот же
# ответ — поэтому TensorFlow возвращает градиенты, а не хранит их в переменных. <!-- claim: l07.gradients-returned -->

# %% key="local-dict-code"
def gradient_kept_on_nodes(tape, target, sources, grads):
    grads[id(target)] = 1.0
    for rec in reversed(tape.records):
        g = grads.get(id(rec.output))
        if g is not None:
            for v, gv in zip(rec.inputs, rec.vjp(g)):
                grads[id(v)] = grads.get(id(v), 0.0) + gv
    return [grads.get(id(s)) for s in sources]


kept = {}
for n in (1, 2):
    print(t("l07.kept.call", n=n, grads=gradient_kept_on_nodes(tape, f, [x, y], kept)))
for n in (1, 2):
    print(t("l07.local.call", n=n, grads=tape.gradient(f, [x, y])))

# %% [markdown] key="local-dict-three" lang="en"
# The second call does not give twice the right gradients but three times. It resets only the
# target's entry to $1$. The intermediate values $a = x y$ and $b = \sin x$ still hold the $1$ the
# first call gave them, so each now holds $2$ and passes $2$ back instead of $1$: the new
# contributions to $x$ and $y$ are twice the right ones, and they land on the right ones the first
# call left there, $1 + 2 = 3$. A stale gradient does not just add once: every intermediate
# value carries it further down the graph. (A third call would give six times.)

# %% [markdown] key="local-dict-three" lang="es" src="e4171800"
# La segunda llamada no da el doble de los gradientes correctos, sino el triple. Solo vuelve a
# poner a $1$ el gradiente del propio objetivo (su clave en el diccionario). Los valores intermedios $a = x y$ y $b = \sin x$ conservan
# el $1$ que les dio la primera llamada, así que ahora cada uno tiene $2$ y devuelve $2$ en lugar
# de $1$: las nuevas contribuciones a $x$ e $y$ son el doble de las correctas, y se suman a las
# correctas que dejó la primera llamada, $1 + 2 = 3$. Un gradiente viejo no se suma una sola vez:
# cada valor intermedio lo arrastra más abajo en el grafo. (Una tercera llamada daría seis
# veces el valor correcto.)

# %% [markdown] key="local-dict-three" lang="pt" src="e4171800"
# A segunda chamada não dá o dobro dos gradientes certos, e sim o triplo. Ela só volta a pôr em
# $1$ o gradiente do próprio alvo (a chave dele no dicionário). Os valores intermediários $a = x y$ e $b = \sin x$ ainda guardam o $1$
# que a primeira chamada lhes deu; agora cada um fica com $2$ e devolve $2$ em vez de $1$: as
# novas contribuições para $x$ e $y$ são o dobro das certas e caem em cima das certas que a
# primeira chamada deixou, $1 + 2 = 3$. Um gradiente velho não é somado uma vez só: cada valor
# intermediário o leva adiante, grafo abaixo. (Uma terceira chamada daria seis vezes o valor
# certo.)

# %% [markdown] key="local-dict-three" lang="ru" src="e4171800"
# Второй вызов даёт не удвоенные, а утроенные градиенты. Он заново ставит $1$ только для самой
# цели. Промежуточные значения $a = x y$ и $b = \sin x$ всё ещё хранят $1$, полученную при первом
# вызове, поэтому теперь у каждого из них $2$, и назад они передают $2$ вместо $1$: новые вклады в
# $x$ и $y$ вдвое больше правильных и ложатся поверх правильных, оставшихся от первого вызова:
# $1 + 2 = 3$. Устаревший градиент прибавляется не один раз: каждое промежуточное значение
# несёт его дальше вниз по графу. (Третий вызов дал бы шестикратное значение.)

# %% [markdown] key="no-recursion" lang="en"
# ## Why a loop and not recursion?
#
# micrograd finds its order with a recursive depth-first search (`build_topo`): to place a
# value, it first places its inputs, recursively. Each level of the graph is one level of
# Python recursion, and Python stops at a fixed depth (`sys.getrecursionlimit()`, about a
# thousand to a few thousand). A recurrent network unrolled over many time steps, or any long
# chain of operations, is deeper than that. Our backward pass is a plain loop over a list: its
# depth does not matter. TensorFlow (and minitape) do the same, scheduling the backward pass
# with a counter of pending uses per tensor, without recursion. <!-- claim: l07.no-recursion -->
#
# Below, 5000 sines in a row: our loop differentiates the chain, a recursive search over the
# same records gives up.

# %% [markdown] key="no-recursion" lang="es" src="900f0fc9"
# ## ¿Por qué un bucle y no recursión?
#
# micrograd encuentra su orden con una búsqueda en profundidad recursiva (`build_topo`): para
# colocar un valor, primero coloca sus entradas, recursivamente. Cada nivel del grafo es un
# nivel de recursión de Python, y Python se detiene a una profundidad fija
# (`sys.getrecursionlimit()`, entre unos mil y unos pocos miles). Una red recurrente desplegada
# sobre muchos pasos de tiempo, o cualquier cadena larga de operaciones, es más profunda que
# eso. Nuestra pasada hacia atrás es un bucle simple sobre una lista: la profundidad le da
# igual. TensorFlow (y minitape) hacen lo mismo: planifican la pasada hacia atrás con un
# contador de usos pendientes por tensor, sin recursión. <!-- claim: l07.no-recursion -->
#
# Abajo, 5000 senos seguidos: nuestro bucle deriva la cadena, y una búsqueda recursiva sobre
# los mismos registros se rinde.

# %% [markdown] key="no-recursion" lang="pt" src="900f0fc9"
# ## Por que um laço e não recursão?
#
# O micrograd encontra a sua ordem com uma busca em profundidade recursiva (`build_topo`): para
# posicionar um valor, primeiro posiciona as entradas dele, recursivamente. Cada nível do grafo
# é um nível de recursão do Python, e o Python para em uma profundidade fixa
# (`sys.getrecursionlimit()`, de umas mil a alguns milhares). Uma rede recorrente desdobrada ao
# longo de muitos passos de tempo, ou qualquer cadeia longa de operações, é mais profunda que
# isso. A nossa passagem para trás é um laço simples sobre uma lista: a profundidade não faz
# diferença. O TensorFlow (e o minitape) fazem o mesmo: agendam a passagem para trás com um
# contador de usos pendentes por tensor, sem recursão. <!-- claim: l07.no-recursion -->
#
# Abaixo, 5.000 senos em sequência: o nosso laço deriva a cadeia, e uma busca recursiva sobre os
# mesmos registros desiste.

# %% [markdown] key="no-recursion" lang="ru" src="900f0fc9"
# ## Почему цикл, а не рекурсия?
#
# micrograd находит порядок рекурсивным поиском в глубину (`build_topo`): чтобы поставить
# значение на место, он сначала рекурсивно расставляет его входы. Каждый уровень графа — это
# уровень рекурсии Python, а Python останавливается на фиксированной глубине
# (`sys.getrecursionlimit()`, от тысячи до нескольких тысяч). Рекуррентная сеть, развёрнутая
# на много шагов по времени, или любая длинная цепочка операций легко оказывается глубже этого
# предела. Наш
# обратный проход — простой цикл по списку, глубина ему безразлична. TensorFlow (и minitape)
# поступают так же: планируют обратный проход счётчиком ещё не учтённых использований каждого
# тензора, без рекурсии. <!-- claim: l07.no-recursion -->
#
# Ниже — 5000 синусов подряд: наш цикл дифференцирует цепочку, а рекурсивный поиск по тем же
# записям сдаётся.

# %% key="no-recursion-code"
def build_order_recursively(value, producer, order, seen):
    if id(value) in seen:
        return
    seen.add(id(value))
    if id(value) in producer:
        for v in producer[id(value)].inputs:
            build_order_recursively(v, producer, order, seen)
    order.append(value)


z = Value(0.5)
with Tape() as deep:
    deep.watch(z)
    w = z
    for _ in range(5000):
        w = sin(w)

print(tn("l07.deep.plural", len(deep.records), limit=sys.getrecursionlimit()))
print(tn("l07.deep.gradient.plural", len(deep.records), grad=f"{deep.gradient(w, z):.6g}"))

producer = {id(rec.output): rec for rec in deep.records}
try:
    build_order_recursively(w, producer, [], set())
except RecursionError as error:
    print(t("l07.gloss.recursion"))
    print("RecursionError:", error)

# %% [markdown] key="compare" lang="en"
# ## Step 5 · Check against `tf.GradientTape`
#
# Time to compare with the real thing. Each function below is written once and receives its
# `sin` and `exp` from an argument `m`: our operations or minitape's. <!-- claim: l07.compare-minitape --> The minitape side uses
# `tf.Variable(..., dtype=tf.float64)`: a Python float becomes float32 in minitape (as in
# TensorFlow), while our tape computes in Python floats, which are float64. <!-- claim: l07.float32-default --> With the same
# precision on both sides the two tapes agree to the last digit or nearly so.

# %% [markdown] key="compare" lang="es" src="d5ff991a"
# ## Paso 5 · Comparar con `tf.GradientTape`
#
# Es hora de comparar con la de verdad. Cada función de abajo se escribe una sola vez y recibe
# sus `sin` y `exp` en un argumento `m`: nuestras operaciones o las de minitape. <!-- claim: l07.compare-minitape --> Del lado de
# minitape usamos `tf.Variable(..., dtype=tf.float64)`: en minitape (como en TensorFlow) un
# `float` de Python se convierte en float32, mientras que nuestra cinta calcula con `float` de
# Python, que son float64. <!-- claim: l07.float32-default --> Con la misma precisión en los dos lados, las dos cintas coinciden
# hasta la última cifra o casi.

# %% [markdown] key="compare" lang="pt" src="d5ff991a"
# ## Passo 5 · Conferindo com a `tf.GradientTape`
#
# Hora de comparar com a de verdade. Cada função abaixo é escrita uma vez só e recebe o seu
# `sin` e o seu `exp` em um argumento `m`: as nossas operações ou as do minitape. <!-- claim: l07.compare-minitape --> Do lado do
# minitape usamos `tf.Variable(..., dtype=tf.float64)`: no minitape (como no TensorFlow) um
# `float` do Python vira float32, enquanto a nossa fita calcula com `float` do Python, que são
# float64. <!-- claim: l07.float32-default --> Com a mesma precisão dos dois lados, as duas fitas concordam até o último dígito, ou
# quase.

# %% [markdown] key="compare" lang="ru" src="d5ff991a"
# ## Шаг 5 · Сверка с `tf.GradientTape`
#
# Пора сравнить с настоящей лентой. Каждая функция ниже написана один раз и получает `sin` и
# `exp` через аргумент `m`: наши операции или операции minitape. <!-- claim: l07.compare-minitape --> На стороне minitape мы
# используем `tf.Variable(..., dtype=tf.float64)`: minitape, как и TensorFlow, превращает число
# `float` из Python в float32, а наша лента считает в `float` Python, то есть в float64. <!-- claim: l07.float32-default -->
# При одинаковой точности с обеих сторон две ленты совпадают до последнего знака или почти до
# него.

# %% key="compare-code"
Ops = namedtuple("Ops", ["sin", "exp"])
ours = Ops(sin, exp)
theirs = Ops(tf.sin, tf.exp)

FUNCTIONS = {
    "x*y + sin(x)": lambda x, y, m: x * y + m.sin(x),
    "sin(x*y) + x**3": lambda x, y, m: m.sin(x * y) + x**3,
    "exp(-(x**2)) * y": lambda x, y, m: m.exp(-(x**2)) * y,
    "x*x*x - 2*x*y + y": lambda x, y, m: x * x * x - 2 * x * y + y,
    "exp(sin(x) * y) - y**2": lambda x, y, m: m.exp(m.sin(x) * y) - y**2,
}


def our_gradients(fn, x0, y0):
    x, y = Value(x0), Value(y0)
    with Tape() as tape:
        tape.watch(x)
        tape.watch(y)
        out = fn(x, y, ours)
    return tape.gradient(out, [x, y])


def minitape_gradients(fn, x0, y0):
    x = tf.Variable(x0, dtype=tf.float64)
    y = tf.Variable(y0, dtype=tf.float64)
    with tf.GradientTape() as tape:
        out = fn(x, y, theirs)
    return [g.numpy() for g in tape.gradient(out, [x, y])]


rng = np.random.default_rng(6)
worst = 0.0
print(t("l07.compare.header"))
for name, fn in FUNCTIONS.items():
    x0, y0 = rng.uniform(-2, 2, size=2)
    mine, reference = our_gradients(fn, x0, y0), minitape_gradients(fn, x0, y0)
    diff = max(abs(mine[0] - reference[0]), abs(mine[1] - reference[1]))
    worst = max(worst, diff)
    print(f"{name:25} {mine[0]: .6f} {mine[1]: .6f}      {reference[0]: .6f} {reference[1]: .6f}      {diff:.1e}")
print(t("l07.compare.worst", worst=f"{worst:.1e}"))

# %% [markdown] key="draw" lang="en"
# ## Two tapes, one graph
#
# minitape can draw what its tape recorded. <!-- claim: l07.draw --> Here is $f = x y + \sin x$ again, recorded by
# `tf.GradientTape`; compare it with what `show` printed for our tape above: the same three
# operations (TensorFlow names them `Mul`, `Sin`, `AddV2`), on the same values. <!-- claim: l07.op-names -->

# %% [markdown] key="draw" lang="es" src="dfd78003"
# ## Dos cintas, un mismo grafo
#
# minitape sabe dibujar lo que grabó su cinta. <!-- claim: l07.draw --> Aquí está de nuevo $f = x y + \sin x$, grabada
# por `tf.GradientTape`; compárala con lo que `show` imprimió para nuestra cinta más arriba: las
# mismas tres operaciones (TensorFlow las llama `Mul`, `Sin`, `AddV2`), sobre los mismos valores. <!-- claim: l07.op-names -->

# %% [markdown] key="draw" lang="pt" src="dfd78003"
# ## Duas fitas, o mesmo grafo
#
# O minitape sabe desenhar o que a sua fita gravou. <!-- claim: l07.draw --> Aqui está de novo $f = x y + \sin x$,
# gravada pela `tf.GradientTape`; compare com o que `show` imprimiu para a nossa fita lá em
# cima: as mesmas três operações (o TensorFlow as chama de `Mul`, `Sin`, `AddV2`), sobre os
# mesmos valores. <!-- claim: l07.op-names -->

# %% [markdown] key="draw" lang="ru" src="dfd78003"
# ## Две ленты — один граф
#
# minitape умеет рисовать то, что записала его лента. <!-- claim: l07.draw --> Вот снова $f = x y + \sin x$, на этот
# раз записанная `tf.GradientTape`; сравните с тем, что `show` напечатала для нашей ленты выше:
# те же три операции (в TensorFlow они называются `Mul`, `Sin`, `AddV2`) над теми же
# значениями. <!-- claim: l07.op-names -->

# %% key="draw-code" tf="course"
x_tf = tf.Variable(1.5, dtype=tf.float64)
y_tf = tf.Variable(0.5, dtype=tf.float64)
with tf.GradientTape(persistent=True) as tf_tape:
    f_tf = x_tf * y_tf + tf.sin(x_tf)

tf_names = {"x": x_tf, "y": y_tf, "f": f_tf}
draw(tf_tape, names=tf_names)

# %% [markdown] key="stepper" lang="en"
# ## Step through both backward passes
#
# `stepper(tape, target, sources)` runs minitape's own backward pass one operation at a time:
# press *Next* and watch which operation's gradient rule runs and what each tensor has
# accumulated so far. <!-- claim: l07.stepper --> Below it, the slider does the same for **our** tape: each step is one
# record of our reverse loop, with the contents of `grads` after it. Step through both and
# compare. The order can differ — minitape schedules an operation as soon as all the users of
# its output have contributed, we simply walk the records backwards — but both are valid orders
# and both end with $\frac{\partial f}{\partial x} = y + \cos x \approx 0.5707$ and
# $\frac{\partial f}{\partial y} = 1.5$. <!-- claim: l07.stepper-order -->

# %% [markdown] key="stepper" lang="es" src="b135d39c"
# ## Paso a paso por las dos pasadas hacia atrás
#
# `stepper(tape, target, sources)` ejecuta la propia pasada hacia atrás de minitape operación
# a operación: pulsa *Siguiente* y observa qué regla de gradiente se aplica y cuánto ha acumulado
# cada tensor hasta ese momento. <!-- claim: l07.stepper --> Debajo, el deslizador hace lo mismo con **nuestra** cinta:
# cada paso es un registro de nuestro bucle inverso, con el contenido de `grads` después de
# él. Avanza por las dos y compáralas. El orden puede ser distinto (minitape planifica una
# operación en cuanto han contribuido todas las operaciones que usan su salida; nosotros solo
# recorremos los registros hacia atrás), pero ambos órdenes son válidos y los dos terminan en
# $\frac{\partial f}{\partial x} = y + \cos x \approx 0{,}5707$ y
# $\frac{\partial f}{\partial y} = 1{,}5$. <!-- claim: l07.stepper-order -->

# %% [markdown] key="stepper" lang="pt" src="b135d39c"
# ## Passo a passo pelas duas passagens para trás
#
# `stepper(tape, target, sources)` executa a própria passagem para trás do minitape operação
# por operação: clique em *Próximo* e veja qual regra de gradiente é aplicada e quanto cada tensor
# já acumulou. <!-- claim: l07.stepper --> Logo abaixo, o controle deslizante faz o mesmo com a **nossa** fita: cada passo
# é um registro do nosso laço invertido, com o conteúdo de `grads` depois dele. Avance pelas
# duas e compare. A ordem pode ser diferente (o minitape agenda uma operação assim que todas as
# operações que consomem a sua saída contribuíram; nós só percorremos os registros de trás para a frente),
# mas as duas ordens são válidas e ambas terminam em
# $\frac{\partial f}{\partial x} = y + \cos x \approx 0{,}5707$ e
# $\frac{\partial f}{\partial y} = 1{,}5$. <!-- claim: l07.stepper-order -->

# %% [markdown] key="stepper" lang="ru" src="b135d39c"
# ## Оба обратных прохода по шагам
#
# `stepper(tape, target, sources)` выполняет собственный обратный проход minitape по одной
# операции: нажимайте *Далее* и смотрите, какое правило градиента применяется и что каждый
# тензор уже накопил. <!-- claim: l07.stepper --> Ниже ползунок делает то же самое для **нашей** ленты: каждый шаг — одна
# запись нашего обратного цикла и содержимое `grads` после неё. Пройдите оба и сравните.
# Порядок может отличаться (minitape берёт операцию, как только все потребители её выхода
# внесли свой вклад, а мы просто идём по записям назад), но оба порядка правильные, и оба
# заканчиваются на $\frac{\partial f}{\partial x} = y + \cos x \approx 0{,}5707$ и
# $\frac{\partial f}{\partial y} = 1{,}5$. <!-- claim: l07.stepper-order -->

# %% key="stepper-code" tf="course"
stepper(tf_tape, f_tf, [x_tf, y_tf], names=tf_names)

# %% key="our-stepper-code"
def our_backward_steps(tape, target):
    grads = {id(target): 1.0}
    yield None, 1.0, dict(grads)
    for rec in reversed(tape.records):
        g = grads.get(id(rec.output))
        if g is None:
            continue
        for v, gv in zip(rec.inputs, rec.vjp(g)):
            grads[id(v)] = grads.get(id(v), 0.0) + gv
        yield rec, g, dict(grads)


def our_stepper(tape, target, **names):
    label = labels(tape, **names)
    history = list(our_backward_steps(tape, target))
    slider = widgets.IntSlider(value=0, min=0, max=len(history) - 1, description=t("l07.steps.slider"),
                               style={"description_width": "initial"}, layout=widgets.Layout(width="520px"))
    view = widgets.HTML()

    def show_step(change=None):
        rec, g, grads = history[slider.value]
        if rec is None:
            head = t("l07.steps.seed", target=label[id(target)])
        else:
            args = ", ".join(label[id(v)] for v in rec.inputs)
            head = t("l07.steps.record", step=slider.value, out=label[id(rec.output)], op=rec.op,
                     args=args, grad=f"{g:.6g}")
        values = {id(rec.output): rec.output.value for rec in tape.records}
        values.update({id(v): v.value for rec in tape.records for v in rec.inputs})
        rows = "".join(f"<tr><td><code>{label[key]}</code></td><td>{values[key]:.6g}</td>"
                       f"<td><b>{grad:.6g}</b></td></tr>" for key, grad in grads.items())
        view.value = (f"<p>{head}</p><table><tr><th></th><th>{t('l07.steps.value')}</th>"
                      f"<th>{t('l07.steps.grad')}</th></tr>{rows}</table>")

    slider.observe(show_step, names="value")
    show_step()
    return widgets.VBox([slider, view])


our_stepper(tape, f, x=x, y=y, f=f)

# %% [markdown] key="figure" lang="en"
# ## Exact, not approximate
#
# A last comparison, on a whole curve: $g(x) = \sin(2x)\, e^{-x^2/4}$ and its derivative from
# both tapes (left). On the right, what you would get *without* a tape: finite differences
# $\frac{g(x+h) - g(x)}{h}$ and $\frac{g(x+h) - g(x-h)}{2h}$ at $x = 1$, compared with the
# tape's derivative as $h$ shrinks (read the axis from left to right). The error first falls —
# the formula approaches the derivative — then rises again, because $g(x+h) - g(x)$ subtracts
# two nearly equal numbers and loses digits to rounding. The best one can do is about $10^{-9}$
# (forward) or $10^{-12}$ (central). <!-- claim: l07.figure-errors --> A tape has no $h$: it applies exact derivative rules, so
# its only error is float64 rounding (dotted line), and both tapes agree. <!-- claim: l07.figure-dotted -->

# %% [markdown] key="figure" lang="es" src="eafcdc03"
# ## Exacto, no aproximado
#
# Una última comparación, sobre una curva entera: $g(x) = \sin(2x)\, e^{-x^2/4}$ y su derivada
# según las dos cintas (izquierda). A la derecha, lo que obtendrías *sin* una cinta:
# diferencias finitas $\frac{g(x+h) - g(x)}{h}$ y $\frac{g(x+h) - g(x-h)}{2h}$ en $x = 1$,
# comparadas con la derivada de la cinta a medida que $h$ disminuye (lee el eje de izquierda a
# derecha). El error primero baja (la fórmula se acerca a la derivada) y luego vuelve a subir,
# porque $g(x+h) - g(x)$ resta dos números casi iguales y pierde cifras por el redondeo. Lo
# mejor que se consigue es del orden de $10^{-9}$ (progresiva) o $10^{-12}$ (central). <!-- claim: l07.figure-errors --> Una
# cinta no tiene $h$: aplica reglas de derivación exactas, así que su único error es el
# redondeo de float64 (línea punteada), y las dos cintas coinciden. <!-- claim: l07.figure-dotted -->

# %% [markdown] key="figure" lang="pt" src="eafcdc03"
# ## Exato, não aproximado
#
# Uma última comparação, sobre uma curva inteira: $g(x) = \sin(2x)\, e^{-x^2/4}$ e a sua
# derivada pelas duas fitas (à esquerda). À direita, o que você obteria *sem* uma fita:
# diferenças finitas $\frac{g(x+h) - g(x)}{h}$ e $\frac{g(x+h) - g(x-h)}{2h}$ em $x = 1$,
# comparadas com a derivada da fita à medida que $h$ diminui (leia o eixo da esquerda para a
# direita). O erro primeiro cai (a fórmula se aproxima da derivada) e depois volta a subir,
# porque $g(x+h) - g(x)$ subtrai dois números quase iguais e perde dígitos no arredondamento.
# O melhor que se consegue fica na casa de $10^{-9}$ (progressiva) ou $10^{-12}$ (central). <!-- claim: l07.figure-errors --> Uma
# fita não tem $h$: ela aplica regras de derivação exatas, então o seu único erro é o
# arredondamento de float64 (linha pontilhada), e as duas fitas concordam. <!-- claim: l07.figure-dotted -->

# %% [markdown] key="figure" lang="ru" src="eafcdc03"
# ## Точно, а не приближённо
#
# Последнее сравнение — на целой кривой: $g(x) = \sin(2x)\, e^{-x^2/4}$ и её производная по
# обеим лентам (слева). Справа — то, что получилось бы *без* ленты: конечные разности
# $\frac{g(x+h) - g(x)}{h}$ и $\frac{g(x+h) - g(x-h)}{2h}$ в точке $x = 1$ в сравнении с
# производной, найденной лентой, по мере уменьшения $h$ (ось читается слева направо). Ошибка
# сначала падает (формула приближается к производной), а потом снова растёт: в
# $g(x+h) - g(x)$ вычитаются два почти равных числа, и округление съедает значащие цифры.
# Лучшее, чего можно добиться, — около $10^{-9}$ (правая разность) или $10^{-12}$
# (центральная). <!-- claim: l07.figure-errors --> У ленты нет никакого $h$: она применяет точные правила дифференцирования,
# поэтому её единственная ошибка — округление float64 (пунктир), и две ленты совпадают. <!-- claim: l07.figure-dotted -->

# %% key="figure-code"
def g_fn(x, m):
    return m.sin(2 * x) * m.exp(-0.25 * x**2)


def our_derivative(x0):
    x = Value(x0)
    with Tape() as tape:
        tape.watch(x)
        out = g_fn(x, ours)
    return tape.gradient(out, x)


def minitape_derivative(x0):
    x = tf.Variable(x0, dtype=tf.float64)
    with tf.GradientTape() as tape:
        out = g_fn(x, theirs)
    return tape.gradient(out, x).numpy()


xs = np.linspace(-4, 4, 161)
g_values = [g_fn(Value(x0), ours).value for x0 in xs]
ours_d = np.array([our_derivative(x0) for x0 in xs])
theirs_d = np.array([minitape_derivative(x0) for x0 in xs[::8]])

x0 = 1.0
exact = our_derivative(x0)
hs = np.logspace(-1, -13, 49)
forward_err = [abs((g_fn(Value(x0 + h), ours).value - g_fn(Value(x0), ours).value) / h - exact) for h in hs]
central_err = [abs((g_fn(Value(x0 + h), ours).value - g_fn(Value(x0 - h), ours).value) / (2 * h) - exact)
               for h in hs]

fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
left.plot(xs, g_values, color="0.6", label=t("l07.fig.function"))
left.plot(xs, ours_d, color="C0", label=t("l07.fig.ours"))
left.plot(xs[::8], theirs_d, "o", color="C1", markersize=4, label=t("l07.fig.minitape"))
left.set(xlabel="x", title=t("l07.fig.left_title"))
left.legend(fontsize=8)
right.loglog(hs, np.maximum(forward_err, 1e-18), label=t("l07.fig.forward"))
right.loglog(hs, np.maximum(central_err, 1e-18), label=t("l07.fig.central"))
right.axhline(np.finfo(float).eps * abs(exact), color="0.3", linestyle=":", label=t("l07.fig.eps"))
right.invert_xaxis()
right.set(xlabel="h", ylabel=t("l07.fig.error"), title=t("l07.fig.right_title"))
right.legend(fontsize=8)
fig.tight_layout()
describe(t("l07.fig.alt"))
plt.show()
print(t("l07.fig.agree", diff=f"{np.max(np.abs(ours_d[::8] - theirs_d)):.1e}"))

# %% [markdown] key="exercises" lang="en"
# ## Exercises
#
# Now it is your turn to extend the tape. As before: complete each function, run its cell and
# then the `check` cell below it. Your functions take and return plain Python numbers, and the
# grader compares them with the gradients of minitape's `tf.GradientTape` — at the examples
# first, and at random points when your work is graded, so the tape has to be right in
# general. <!-- claim: l07.grader-minitape --> Compute everything with **your** tape: that is the point of the exercise.

# %% [markdown] key="exercises" lang="es" src="3a3bf2bc"
# ## Ejercicios
#
# Ahora te toca ampliar la cinta. Como antes: completa cada función, ejecuta su celda y después
# la celda de `check` que hay debajo. Tus funciones reciben y devuelven números corrientes de
# Python, y el corrector los compara con los gradientes de `tf.GradientTape` de minitape:
# primero en los ejemplos y, al calificar, en puntos aleatorios, así que la cinta tiene que
# estar bien en general. <!-- claim: l07.grader-minitape --> Calcula todo con **tu** cinta: de eso se trata el ejercicio.

# %% [markdown] key="exercises" lang="pt" src="3a3bf2bc"
# ## Exercícios
#
# Agora é a sua vez de ampliar a fita. Como antes: complete cada função, execute a célula dela
# e depois a célula de `check` logo abaixo. As suas funções recebem e devolvem números comuns
# do Python, e o corretor os compara com os gradientes da `tf.GradientTape` do minitape:
# primeiro nos exemplos e, na correção, em pontos aleatórios, então a fita precisa estar certa
# em geral. <!-- claim: l07.grader-minitape --> Calcule tudo com a **sua** fita: é esse o objetivo do exercício.

# %% [markdown] key="exercises" lang="ru" src="3a3bf2bc"
# ## Упражнения
#
# Теперь ваша очередь расширить ленту. Как и раньше: допишите каждую функцию, выполните её
# ячейку, а затем ячейку с `check` под ней. Ваши функции принимают и возвращают обычные числа
# Python, а проверяющая система сравнивает их с градиентами `tf.GradientTape` из minitape —
# сначала на примерах, а при оценивании — в случайных точках, так что лента должна быть верной в
# общем случае. <!-- claim: l07.grader-minitape --> Всё вычисляйте **своей** лентой: в этом и смысл упражнения.

# %% [markdown] key="ex1" lang="en"
# ### Exercise 1 · Division and cosine (2 points)
#
# Teach the tape two new operations, following `mul` and `sin` above:
#
# - `cos(x)`: the forward value $\cos x$ and the VJP $g \mapsto -g \sin x$;
# - `div(a, b)`: the forward value $a / b$ and the VJP
#   $g \mapsto \left(\frac{g}{b},\ -\frac{g\,a}{b^2}\right)$.
#
# Each must compute its output `Value` and return `record(...)` with its name, output, inputs
# and VJP. The cell then makes `/` use `div`, and `quotient_gradients(a0, b0)` (already
# written) records $f = \cos(a b) / b$ and returns
# $\left[\frac{\partial f}{\partial a}, \frac{\partial f}{\partial b}\right]$ from your tape.
# At $a_0 = 0.5$, $b_0 = 2$ the answer is $[-\sin 1,\ -\tfrac{1}{4}\sin 1 - \tfrac{1}{4}\cos 1]
# \approx [-0.8415, -0.3454]$.

# %% [markdown] key="ex1" lang="es" src="61740b9c"
# ### Ejercicio 1 · División y coseno (2 puntos)
#
# Enseña a la cinta dos operaciones nuevas, siguiendo el modelo de `mul` y `sin`:
#
# - `cos(x)`: el valor hacia adelante $\cos x$ y la VJP $g \mapsto -g \sin x$;
# - `div(a, b)`: el valor hacia adelante $a / b$ y la VJP
#   $g \mapsto \left(\frac{g}{b},\ -\frac{g\,a}{b^2}\right)$.
#
# Cada una tiene que calcular su `Value` de salida y devolver `record(...)` con su nombre, su
# salida, sus entradas y su VJP. Después, la celda hace que `/` use `div`, y
# `quotient_gradients(a0, b0)` (ya escrita) graba $f = \cos(a b) / b$ y devuelve
# $\left[\frac{\partial f}{\partial a}, \frac{\partial f}{\partial b}\right]$ calculados con tu
# cinta. En $a_0 = 0{,}5$ y $b_0 = 2$ la respuesta es
# $[-\sin 1;\ -\tfrac{1}{4}\sin 1 - \tfrac{1}{4}\cos 1] \approx [-0{,}8415; -0{,}3454]$.

# %% [markdown] key="ex1" lang="pt" src="61740b9c"
# ### Exercício 1 · Divisão e cosseno (2 pontos)
#
# Ensine duas operações novas à fita, seguindo o modelo de `mul` e `sin`:
#
# - `cos(x)`: o valor para a frente $\cos x$ e a VJP $g \mapsto -g \sin x$;
# - `div(a, b)`: o valor para a frente $a / b$ e a VJP
#   $g \mapsto \left(\frac{g}{b},\ -\frac{g\,a}{b^2}\right)$.
#
# Cada uma precisa calcular o seu `Value` de saída e devolver `record(...)` com o seu nome, a
# sua saída, as suas entradas e a sua VJP. Em seguida, a célula faz `/` usar `div`, e
# `quotient_gradients(a0, b0)` (já escrita) grava $f = \cos(a b) / b$ e devolve
# $\left[\frac{\partial f}{\partial a}, \frac{\partial f}{\partial b}\right]$ calculados pela
# sua fita. Em $a_0 = 0{,}5$ e $b_0 = 2$ a resposta é
# $[-\sin 1;\ -\tfrac{1}{4}\sin 1 - \tfrac{1}{4}\cos 1] \approx [-0{,}8415; -0{,}3454]$.

# %% [markdown] key="ex1" lang="ru" src="61740b9c"
# ### Упражнение 1 · Деление и косинус (2 балла)
#
# Научите ленту двум новым операциям по образцу `mul` и `sin`:
#
# - `cos(x)`: значение при прямом проходе $\cos x$ и VJP $g \mapsto -g \sin x$;
# - `div(a, b)`: значение при прямом проходе $a / b$ и VJP
#   $g \mapsto \left(\frac{g}{b},\ -\frac{g\,a}{b^2}\right)$.
#
# Каждая должна вычислить выходное `Value` и вернуть `record(...)` со своим именем, выходом,
# входами и VJP. Затем ячейка подключает `div` к оператору `/`, а уже написанная функция
# `quotient_gradients(a0, b0)` записывает $f = \cos(a b) / b$ и возвращает
# $\left[\frac{\partial f}{\partial a}, \frac{\partial f}{\partial b}\right]$, вычисленные
# вашей лентой. При $a_0 = 0{,}5$ и $b_0 = 2$ ответ равен
# $[-\sin 1;\ -\tfrac{1}{4}\sin 1 - \tfrac{1}{4}\cos 1] \approx [-0{,}8415; -0{,}3454]$.

# %% nbgrader="solution" grade_id="l07_ex1_solution"
def cos(x):
    x = constant(x)
    ### BEGIN SOLUTION
    out = Value(math.cos(x.value))
    return record("cos", out, (x,), lambda g: (-g * math.sin(x.value),))
    ### END SOLUTION


def div(a, b):
    a, b = constant(a), constant(b)
    ### BEGIN SOLUTION
    out = Value(a.value / b.value)
    return record("div", out, (a, b), lambda g: (g / b.value, -g * a.value / b.value**2))
    ### END SOLUTION


Value.__truediv__ = div
Value.__rtruediv__ = lambda self, other: div(other, self)


def quotient_gradients(a0, b0):
    a, b = Value(a0), Value(b0)
    with Tape() as tape:
        tape.watch(a)
        tape.watch(b)
        f = cos(a * b) / b
    return tape.gradient(f, [a, b])

# %% nbgrader="tests" grade_id="l07_ex1" points=2
from grader import check
check("l07_ex1")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l07_ex1")
### END HIDDEN TESTS

# %% [markdown] key="ex2" lang="en"
# ### Exercise 2 · The reverse sweep on a bare tape (3 points)
#
# Real engines do not store a Python closure per operation. TensorFlow's tape stores the
# operation's *name* and the ids of its tensors, and at backward time it looks the gradient
# function up in a registry (`tf.RegisterGradient("Mul")`). <!-- claim: l07.registry-by-name --> Here is such a tape, written as
# plain data: a list of records `(output, op, inputs)` naming the values, a dictionary `values`
# with the value of every name after the forward pass, and a registry `RULES` with one VJP per
# operation: `RULES[op](g, *input_values)` returns the tuple of the inputs' gradients.

# %% [markdown] key="ex2" lang="es" src="d6559529"
# ### Ejercicio 2 · La pasada hacia atrás sobre una cinta desnuda (3 puntos)
#
# Los motores de verdad no guardan una clausura de Python por operación. La cinta de
# TensorFlow guarda el *nombre* de la operación y los identificadores de sus tensores, y en la
# pasada hacia atrás busca la función de gradiente en una tabla global indexada por ese nombre
# (`tf.RegisterGradient("Mul")`). <!-- claim: l07.registry-by-name --> Aquí tienes una cinta así, escrita como datos simples: una
# lista de registros `(output, op, inputs)` que nombran los valores, un diccionario `values`
# con el valor de cada nombre después de la pasada hacia adelante y una tabla `RULES` con una
# VJP por operación: `RULES[op](g, *input_values)` devuelve la tupla de gradientes de las
# entradas.

# %% [markdown] key="ex2" lang="pt" src="d6559529"
# ### Exercício 2 · A passagem para trás sobre uma fita crua (3 pontos)
#
# Motores de verdade não guardam uma *closure* do Python (uma função que leva consigo variáveis do
# contexto em que foi criada, como as nossas `lambda`) por operação. A fita do TensorFlow
# guarda o *nome* da operação e os identificadores dos seus tensores e, na passagem para trás,
# procura a função de gradiente numa tabela global indexada por esse nome
# (`tf.RegisterGradient("Mul")`). <!-- claim: l07.registry-by-name --> Aqui está uma fita assim, escrita como dados simples: uma lista
# de registros `(output, op, inputs)` que dão nome aos valores, um dicionário `values` com o
# valor de cada nome depois da passagem para a frente e uma tabela `RULES` com uma VJP por
# operação: `RULES[op](g, *input_values)` devolve
# a tupla de gradientes das entradas.

# %% [markdown] key="ex2" lang="ru" src="d6559529"
# ### Упражнение 2 · Обратный проход по «голой» ленте (3 балла)
#
# Настоящие движки не хранят замыкание Python для каждой операции. Лента TensorFlow хранит
# *имя* операции и идентификаторы её тензоров, а во время обратного прохода ищет функцию
# градиента в реестре (`tf.RegisterGradient("Mul")`). <!-- claim: l07.registry-by-name --> Вот такая лента, записанная простыми
# данными: список записей `(output, op, inputs)`, где значения названы по именам, словарь
# `values` со значением каждого имени после прямого прохода и реестр `RULES` с одной VJP на
# операцию: `RULES[op](g, *input_values)` возвращает кортеж градиентов входов.

# %% key="ex2-code"
RULES = {
    "add": lambda g, a, b: (g, g),
    "mul": lambda g, a, b: (g * b, g * a),
    "sin": lambda g, a: (g * math.cos(a),),
    "exp": lambda g, a: (g * math.exp(a),),
}
FORWARD = {"add": lambda a, b: a + b, "mul": lambda a, b: a * b, "sin": math.sin, "exp": math.exp}


def run_forward(tape, leaves):
    values = dict(leaves)
    for out, op, inputs in tape:
        values[out] = FORWARD[op](*(values[name] for name in inputs))
    return values


example_tape = [
    ("u", "mul", ("x", "y")),  # u = x * y
    ("v", "sin", ("u",)),  # v = sin(u)
    ("w", "mul", ("v", "x")),  # w = v * x
    ("f", "add", ("w", "u")),  # f = w + u
    ("z", "exp", ("y",)),  # z = exp(y)
]
example_values = run_forward(example_tape, {"x": 0.5, "y": 2.0})
example_values

# %% [markdown] key="ex2-task" lang="en"
# Write `backward(tape, values, target)`: the reverse sweep over such a tape. Return a
# dictionary with an entry for **every** name in `values`: the gradient
# $\frac{\partial\,\text{target}}{\partial\,\text{name}}$, which is `1.0` for the target
# itself and `0.0` for a name the target does not depend on (such as `z` above, or anything
# recorded after the target). A name can be an input several times (`("t", "mul", ("x", "x"))`),
# so add the contributions up. For the example and target `"f"`,
# $\frac{\partial f}{\partial x} = \sin(xy) + x y \cos(xy) + y$ — check it
# against your result.

# %% [markdown] key="ex2-task" lang="es" src="94934146"
# Escribe `backward(tape, values, target)`: la pasada hacia atrás sobre una cinta así. Devuelve
# un diccionario con una entrada para **cada** nombre de `values`: el gradiente
# $\frac{\partial\,\text{target}}{\partial\,\text{name}}$, que vale `1.0` para el propio
# objetivo y `0.0` para un nombre del que el objetivo no depende (como `z` arriba, o cualquier
# cosa grabada después del objetivo). Un nombre puede ser entrada varias veces
# (`("t", "mul", ("x", "x"))`), así que suma las contribuciones. Para el ejemplo y el objetivo
# `"f"`, $\frac{\partial f}{\partial x} = \sin(xy) + x y \cos(xy) + y$:
# compruébalo con tu resultado.

# %% [markdown] key="ex2-task" lang="pt" src="94934146"
# Escreva `backward(tape, values, target)`: a passagem para trás sobre uma fita assim. Devolva
# um dicionário com uma entrada para **cada** nome de `values`: o gradiente
# $\frac{\partial\,\text{target}}{\partial\,\text{name}}$, que vale `1.0` para o próprio alvo e
# `0.0` para um nome do qual o alvo não depende (como `z` acima, ou qualquer coisa gravada
# depois do alvo). Um nome pode ser entrada várias vezes (`("t", "mul", ("x", "x"))`), então
# some as contribuições. Para o exemplo e o alvo `"f"`,
# $\frac{\partial f}{\partial x} = \sin(xy) + x y \cos(xy) + y$: confira com o
# seu resultado.

# %% [markdown] key="ex2-task" lang="ru" src="94934146"
# Напишите `backward(tape, values, target)` — обратный проход по такой ленте. Верните словарь,
# в котором есть запись для **каждого** имени из `values`: градиент
# $\frac{\partial\,\text{target}}{\partial\,\text{name}}$; для самой цели он равен `1.0`, а для
# имени, от которого цель не зависит (как `z` выше или всё, что записано после цели), — `0.0`.
# Одно имя может быть входом несколько раз (`("t", "mul", ("x", "x"))`), поэтому вклады надо
# складывать. Для примера и цели `"f"`
# $\frac{\partial f}{\partial x} = \sin(xy) + x y \cos(xy) + y$ — сверьте с
# вашим результатом.

# %% nbgrader="solution" grade_id="l07_ex2_solution"
def backward(tape, values, target):
    ### BEGIN SOLUTION
    grads = {name: 0.0 for name in values}
    grads[target] = 1.0
    for out, op, inputs in reversed(tape):
        g = grads[out]
        if g == 0.0:  # does not lead to the target (or contributes nothing)
            continue
        for name, contribution in zip(inputs, RULES[op](g, *(values[n] for n in inputs))):
            grads[name] += contribution
    return grads
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l07_ex2" points=3
from grader import check
check("l07_ex2")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l07_ex2")
### END HIDDEN TESTS

# %% [markdown] key="ex3" lang="en"
# ### Exercise 3 · tanh and one neuron (2 points)
#
# A neuron computes $\tanh(w_1 x_1 + w_2 x_2 + b)$. Add `tanh(x)` to the tape: its forward
# value is `math.tanh(x.value)` and, since $\frac{d}{da}\tanh a = 1 - \tanh^2 a$, its VJP can
# reuse the output, like `exp`. Then write `neuron_gradients(w1, w2, b, x1, x2, y)`: with your
# tape, record the squared error
#
# $$L = \big(\tanh(w_1 x_1 + w_2 x_2 + b) - y\big)^2$$
#
# and return $\left[\frac{\partial L}{\partial w_1}, \frac{\partial L}{\partial w_2},
# \frac{\partial L}{\partial b}\right]$. All six arguments are Python floats; only the
# parameters $w_1, w_2, b$ are sources — the data $x_1, x_2, y$ need not be watched.

# %% [markdown] key="ex3" lang="es" src="dafd1638"
# ### Ejercicio 3 · tanh y una neurona (2 puntos)
#
# Una neurona calcula $\tanh(w_1 x_1 + w_2 x_2 + b)$. Añade `tanh(x)` a la cinta: su valor
# hacia adelante es `math.tanh(x.value)` y, como $\frac{d}{da}\tanh a = 1 - \tanh^2 a$, su VJP
# puede reutilizar la salida, igual que `exp`. Después escribe
# `neuron_gradients(w1, w2, b, x1, x2, y)`: con tu cinta, graba el error cuadrático
#
# $$L = \big(\tanh(w_1 x_1 + w_2 x_2 + b) - y\big)^2$$
#
# y devuelve $\left[\frac{\partial L}{\partial w_1}, \frac{\partial L}{\partial w_2},
# \frac{\partial L}{\partial b}\right]$. Los seis argumentos son `float` de Python; solo los
# parámetros $w_1, w_2, b$ son fuentes: no hace falta observar los datos $x_1, x_2, y$.

# %% [markdown] key="ex3" lang="pt" src="dafd1638"
# ### Exercício 3 · tanh e um neurônio (2 pontos)
#
# Um neurônio calcula $\tanh(w_1 x_1 + w_2 x_2 + b)$. Acrescente `tanh(x)` à fita: o seu valor
# para a frente é `math.tanh(x.value)` e, como $\frac{d}{da}\tanh a = 1 - \tanh^2 a$, a sua VJP
# pode reaproveitar a saída, como `exp`. Depois escreva
# `neuron_gradients(w1, w2, b, x1, x2, y)`: com a sua fita, grave o erro quadrático
#
# $$L = \big(\tanh(w_1 x_1 + w_2 x_2 + b) - y\big)^2$$
#
# e devolva $\left[\frac{\partial L}{\partial w_1}, \frac{\partial L}{\partial w_2},
# \frac{\partial L}{\partial b}\right]$. Os seis argumentos são `float` do Python; só os
# parâmetros $w_1, w_2, b$ são fontes: os dados $x_1, x_2, y$ não precisam ser observados.

# %% [markdown] key="ex3" lang="ru" src="dafd1638"
# ### Упражнение 3 · tanh и один нейрон (2 балла)
#
# Нейрон вычисляет $\tanh(w_1 x_1 + w_2 x_2 + b)$. Научите ленту операции `tanh(x)`: значение при
# прямом проходе — `math.tanh(x.value)`, а поскольку $\frac{d}{da}\tanh a = 1 - \tanh^2 a$,
# VJP может повторно использовать выход, как `exp`. Затем напишите
# `neuron_gradients(w1, w2, b, x1, x2, y)`: запишите своей лентой квадратичную ошибку
#
# $$L = \big(\tanh(w_1 x_1 + w_2 x_2 + b) - y\big)^2$$
#
# и верните $\left[\frac{\partial L}{\partial w_1}, \frac{\partial L}{\partial w_2},
# \frac{\partial L}{\partial b}\right]$. Все шесть аргументов — числа `float` Python;
# источники — только параметры $w_1, w_2, b$, а за данными $x_1, x_2, y$ следить не нужно.

# %% nbgrader="solution" grade_id="l07_ex3_solution"
def tanh(x):
    x = constant(x)
    ### BEGIN SOLUTION
    out = Value(math.tanh(x.value))
    return record("tanh", out, (x,), lambda g: (g * (1.0 - out.value**2),))
    ### END SOLUTION


def neuron_gradients(w1, w2, b, x1, x2, y):
    ### BEGIN SOLUTION
    w1, w2, b = Value(w1), Value(w2), Value(b)
    with Tape() as tape:
        for p in (w1, w2, b):
            tape.watch(p)
        loss = (tanh(w1 * x1 + w2 * x2 + b) - y) ** 2
    return tape.gradient(loss, [w1, w2, b])
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l07_ex3" points=2
from grader import check
check("l07_ex3")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l07_ex3")
### END HIDDEN TESTS

# %% [markdown] key="payoff" lang="en"
# ## The payoff · Train a network with your tape
#
# micrograd ends by training a small neural network with nothing but the engine it built, and
# yours can do the same. Below, a network with one hidden layer learns to separate two classes of
# points in the plane, and every gradient of its training comes from **your** `Tape`: the
# `Value`s, the `record` calls and the reverse loop of this lesson, nothing of minitape's. <!-- claim: l07.own-tape-only -->
#
# The network needs one more operation, the ReLU, $\mathrm{relu}(a) = \max(a, 0)$. Its
# derivative is $1$ where $a > 0$ and $0$ where $a < 0$, so its VJP passes $g$ on or stops it:
# $g \mapsto g$ or $g \mapsto 0$. At $a = 0$ exactly there is no derivative; like TensorFlow, we
# take $0$. <!-- claim: l07.relu-at-zero -->

# %% [markdown] key="payoff" lang="es" src="7ba502bf"
# ## La recompensa · Entrena una red con tu cinta
#
# micrograd termina entrenando una pequeña red neuronal sin nada más que el motor que ha
# construido, y la tuya puede hacer lo mismo. Abajo, una red con una capa oculta aprende a
# separar dos clases de puntos del plano, y cada gradiente de su entrenamiento sale de **tu**
# `Tape`: los `Value`, las llamadas a `record` y el bucle inverso de esta lección, nada de
# minitape. <!-- claim: l07.own-tape-only -->
#
# La red necesita una operación más, la ReLU, $\mathrm{relu}(a) = \max(a, 0)$. Su derivada vale
# $1$ donde $a > 0$ y $0$ donde $a < 0$, así que su VJP deja pasar $g$ o lo detiene:
# $g \mapsto g$ o $g \mapsto 0$. Justo en $a = 0$ no hay derivada; como TensorFlow, tomamos $0$. <!-- claim: l07.relu-at-zero -->

# %% [markdown] key="payoff" lang="pt" src="7ba502bf"
# ## A recompensa · Treine uma rede com a sua fita
#
# O micrograd termina treinando uma pequena rede neural só com o motor que construiu, e a sua
# fita pode fazer o mesmo. Abaixo, uma rede com uma camada oculta aprende a separar duas classes
# de pontos do plano, e cada gradiente do treinamento vem da **sua** `Tape`: os `Value`, as
# chamadas a `record` e o laço inverso desta lição, nada do minitape. <!-- claim: l07.own-tape-only -->
#
# A rede precisa de mais uma operação, a ReLU, $\mathrm{relu}(a) = \max(a, 0)$. A derivada dela
# vale $1$ onde $a > 0$ e $0$ onde $a < 0$, então a sua VJP deixa $g$ passar ou o barra:
# $g \mapsto g$ ou $g \mapsto 0$. Exatamente em $a = 0$ não há derivada; como o TensorFlow,
# usamos $0$. <!-- claim: l07.relu-at-zero -->

# %% [markdown] key="payoff" lang="ru" src="7ba502bf"
# ## Главное испытание · Обучите сеть своей лентой
#
# micrograd заканчивается тем, что обучает маленькую нейронную сеть одним лишь движком, который
# в нём построен, и ваша лента умеет то же самое. Ниже сеть с одним скрытым слоем учится
# разделять два класса точек на плоскости, и каждый градиент её обучения вычисляет **ваша**
# `Tape`: значения `Value`, вызовы `record` и обратный цикл из этого урока — ничего из minitape. <!-- claim: l07.own-tape-only -->
#
# Сети нужна ещё одна операция, ReLU: $\mathrm{relu}(a) = \max(a, 0)$. Её производная равна $1$
# при $a > 0$ и $0$ при $a < 0$, поэтому её VJP либо пропускает $g$ дальше, либо обнуляет его:
# $g \mapsto g$ или $g \mapsto 0$. В самой точке $a = 0$ производной нет; как и TensorFlow, мы
# берём $0$. <!-- claim: l07.relu-at-zero -->

# %%
def relu(x):
    x = constant(x)
    out = Value(max(x.value, 0.0))
    return record("relu", out, (x,), lambda g: (g if x.value > 0 else 0.0,))


below, above = Value(-0.5), Value(2.0)
with Tape() as relu_tape:
    relu_tape.watch(below)
    relu_tape.watch(above)
    r = relu(below) + relu(above)
relu_tape.gradient(r, [below, above])

# %% [markdown] key="xor" lang="en"
# The data: the XOR problem, four clouds of 8 points around the corners $(\pm 1, \pm 1)$, drawn
# with NumPy. <!-- claim: l07.xor-data --> Class $+1$ is the two clouds where $x_1$ and $x_2$ have the same sign, class $-1$ the
# other two. No straight line separates them — the classic example of what a linear model cannot
# learn — so the hidden layer has to earn its place. The coordinates are standardized (mean 0 and
# standard deviation 1 on each axis), so that one learning rate suits every weight.

# %% [markdown] key="xor" lang="es" src="4e08c5fe"
# Los datos: el problema XOR, cuatro nubes de 8 puntos alrededor de las esquinas $(\pm 1, \pm 1)$,
# generadas con NumPy. <!-- claim: l07.xor-data --> La clase $+1$ son las dos nubes en las que $x_1$ y $x_2$ tienen el mismo
# signo; la clase $-1$, las otras dos. Ninguna recta las separa —es el ejemplo clásico de lo que un
# modelo lineal no puede aprender—, así que la capa oculta tiene que ganarse su sitio. Las
# coordenadas están estandarizadas (media 0 y desviación estándar 1 en cada eje), para que una sola
# tasa de aprendizaje sirva para todos los pesos.

# %% [markdown] key="xor" lang="pt" src="4e08c5fe"
# Os dados: o problema XOR, quatro nuvens de 8 pontos em torno dos cantos $(\pm 1, \pm 1)$, geradas
# com o NumPy. <!-- claim: l07.xor-data --> A classe $+1$ são as duas nuvens em que $x_1$ e $x_2$ têm o mesmo sinal; a classe
# $-1$, as outras duas. Nenhuma reta as separa — é o exemplo clássico do que um modelo linear não
# consegue aprender —, então a camada oculta precisa mostrar a que veio. As coordenadas são
# padronizadas (média 0 e desvio-padrão 1 em cada eixo), para que uma única taxa de aprendizado
# sirva para todos os pesos.

# %% [markdown] key="xor" lang="ru" src="4e08c5fe"
# Данные: задача XOR — четыре облака по 8 точек вокруг углов $(\pm 1, \pm 1)$, сгенерированные с
# помощью NumPy. <!-- claim: l07.xor-data --> Класс $+1$ — два облака, где у $x_1$ и $x_2$ одинаковый знак, класс $-1$ — два
# других. Никакая прямая их не разделяет (это классический пример того, чему линейная модель
# научиться не может), так что скрытому слою придётся доказать, что он нужен. Координаты
# стандартизованы (среднее 0 и стандартное отклонение 1 по каждой оси), чтобы одна скорость
# обучения подходила для всех весов.

# %%
data_rng = np.random.default_rng(0)
corners = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
X = np.concatenate([c + data_rng.normal(scale=0.3, size=(8, 2)) for c in corners])
X = (X - X.mean(axis=0)) / X.std(axis=0)
Y = np.concatenate([np.ones(16), -np.ones(16)])
X.shape, Y.shape

# %% [markdown] key="model" lang="en"
# The model: 2 inputs, 6 hidden ReLU units, 1 output, the score $s(x)$, whose sign is the
# predicted class. Its 25 parameters are `Value`s in one flat list. The loss is micrograd's, the
# *hinge* (max-margin) loss: $\max(0,\ 1 - y\, s(x))$ is $0$ for a point on the right side by a
# margin of at least 1 and grows linearly otherwise. We average it over the points and add a
# small penalty $\alpha \sum_p p^2$ that keeps the weights small. Like the functions of Step 5,
# `score` and `hinge_loss` receive their ReLU as an argument, so the very same code also runs on
# minitape's tensors. <!-- claim: l07.kit-code -->

# %% [markdown] key="model" lang="es" src="043d4c70"
# El modelo: 2 entradas, 6 unidades ReLU ocultas y 1 salida, la puntuación $s(x)$, cuyo signo es
# la clase predicha. Sus 25 parámetros son `Value` guardados en una lista plana. La pérdida es la
# de micrograd, la pérdida *hinge* (de margen máximo): $\max(0,\ 1 - y\, s(x))$ vale $0$ para un
# punto que está del lado correcto con un margen de al menos 1, y crece linealmente en otro caso.
# La promediamos sobre los puntos y le sumamos una pequeña penalización $\alpha \sum_p p^2$ que
# mantiene pequeños los pesos. Como las funciones del Paso 5, `score` y `hinge_loss` reciben su
# ReLU como argumento, de modo que exactamente el mismo código funciona también con los
# tensores de minitape. <!-- claim: l07.kit-code -->

# %% [markdown] key="model" lang="pt" src="043d4c70"
# O modelo: 2 entradas, 6 unidades ReLU ocultas e 1 saída, a pontuação $s(x)$, cujo sinal é a
# classe prevista. Os seus 25 parâmetros são `Value` guardados numa lista plana. A perda é a do
# micrograd, a perda *hinge* (de margem máxima): $\max(0,\ 1 - y\, s(x))$ vale $0$ para um ponto
# do lado certo com margem de pelo menos 1 e cresce linearmente nos outros casos. Tiramos a média
# sobre os pontos e somamos uma pequena penalidade $\alpha \sum_p p^2$, que mantém os pesos
# pequenos. Como as funções do Passo 5, `score` e `hinge_loss` recebem a ReLU como argumento,
# então exatamente o mesmo código roda também sobre os tensores do minitape. <!-- claim: l07.kit-code -->

# %% [markdown] key="model" lang="ru" src="043d4c70"
# Модель: 2 входа, 6 скрытых нейронов с ReLU и 1 выход — оценка $s(x)$, знак которой и есть
# предсказанный класс. Её 25 параметров — значения `Value` в одном плоском списке. Функция потерь
# взята из micrograd: это *hinge*-функция потерь (функция потерь с максимальным зазором). Величина
# $\max(0,\ 1 - y\, s(x))$ равна $0$ для точки, лежащей с правильной стороны с зазором не меньше
# 1, и линейно растёт в остальных случаях. Мы усредняем её по точкам и добавляем небольшой штраф
# $\alpha \sum_p p^2$, который не даёт весам расти. Как и функции из шага 5, `score` и
# `hinge_loss` получают ReLU аргументом, поэтому тот же самый код работает и с тензорами minitape. <!-- claim: l07.kit-code -->

# %%
HIDDEN = 6


def init_params(rng):
    w1 = rng.normal(size=(HIDDEN, 2))
    b1 = rng.normal(scale=0.5, size=HIDDEN)
    w2 = rng.normal(scale=1 / np.sqrt(HIDDEN), size=HIDDEN)
    return [Value(v) for v in np.concatenate([w1.ravel(), b1, w2, [0.0]])]


def score(params, x1, x2, relu_fn):
    s = params[-1]
    for j in range(HIDDEN):
        h = relu_fn(params[2 * j] * x1 + params[2 * j + 1] * x2 + params[2 * HIDDEN + j])
        s = s + params[3 * HIDDEN + j] * h
    return s


def hinge_loss(params, X, Y, relu_fn, alpha=1e-3):
    total = 0.0
    for (x1, x2), y in zip(X, Y):
        total = total + relu_fn(1.0 - float(y) * score(params, float(x1), float(x2), relu_fn))
    penalty = sum((p * p for p in params), 0.0)
    return total * (1.0 / len(Y)) + alpha * penalty


params = init_params(np.random.default_rng(1))
len(params)

# %% [markdown] key="payoff-check" lang="en"
# Before training, Step 5's check on the real thing: the gradient of this loss with respect to
# all 25 parameters, from your tape and from `tf.GradientTape` with minitape `tf.Variable`s in
# float64 holding the same numbers. <!-- claim: l07.kit-code -->

# %% [markdown] key="payoff-check" lang="es" src="8a2e5011"
# Antes de entrenar, la comprobación del Paso 5 sobre el caso real: el gradiente de esta pérdida
# respecto de los 25 parámetros, calculado con tu cinta y con `tf.GradientTape` sobre
# `tf.Variable` de minitape en float64 que contienen los mismos números. <!-- claim: l07.kit-code -->

# %% [markdown] key="payoff-check" lang="pt" src="8a2e5011"
# Antes de treinar, a verificação do Passo 5 no caso de verdade: o gradiente desta perda em
# relação aos 25 parâmetros, calculado pela sua fita e pela `tf.GradientTape` sobre
# `tf.Variable` do minitape em float64 com os mesmos números. <!-- claim: l07.kit-code -->

# %% [markdown] key="payoff-check" lang="ru" src="8a2e5011"
# Перед обучением — проверка из шага 5, теперь на настоящей задаче: градиент этой функции
# потерь по всем 25 параметрам, вычисленный вашей лентой и `tf.GradientTape` на переменных
# `tf.Variable` из minitape в float64 с теми же числами. <!-- claim: l07.kit-code -->

# %%
def our_loss_and_gradients(params):
    with Tape() as tape:
        for p in params:
            tape.watch(p)
        loss = hinge_loss(params, X, Y, relu)
    return loss.value, tape.gradient(loss, params), len(tape.records)


def minitape_loss_gradients(params):
    variables = [tf.Variable(p.value, dtype=tf.float64) for p in params]
    with tf.GradientTape() as tape:
        loss = hinge_loss(variables, X, Y, tf.nn.relu)
    return [g.numpy() for g in tape.gradient(loss, variables)]


_, ours_grads, n_records = our_loss_and_gradients(params)
theirs_grads = minitape_loss_gradients(params)
print(tn("l07.payoff.records.plural", n_records))
print(t("l07.payoff.check", diff=f"{np.max(np.abs(np.array(ours_grads) - np.array(theirs_grads))):.1e}"))

# %% [markdown] key="payoff-records" lang="en"
# Every product of a weight and a coordinate, every sum and every ReLU of every point is one
# record of yours: well over a thousand of them for a single value of the loss. The two tapes
# agree to rounding.

# %% [markdown] key="payoff-records" lang="es" src="565d012d"
# Cada producto de un peso por una coordenada, cada suma y cada ReLU de cada punto es un registro
# de tu cinta: bastante más de mil registros para un solo valor de la pérdida. Las dos cintas
# coinciden salvo por el redondeo.

# %% [markdown] key="payoff-records" lang="pt" src="565d012d"
# Cada produto de um peso por uma coordenada, cada soma e cada ReLU de cada ponto é um registro
# da sua fita: bem mais de mil registros para um único valor da perda. As duas fitas concordam, a
# menos de arredondamento.

# %% [markdown] key="payoff-records" lang="ru" src="565d012d"
# Каждое произведение веса на координату, каждая сумма и каждая ReLU для каждой точки — это одна
# запись вашей ленты: заметно больше тысячи записей ради одного значения функции потерь. Две
# ленты совпадают с точностью до округления.

# %% [markdown] key="payoff-nudge" lang="en"
# ### A nudge, the check that needs no engine
#
# Step 5 compared your tape with another autodiff engine. A nudge needs no engine at all, only
# the loss's value, so it also checks a gradient that nothing else computes: that is how you would
# check a new engine, or a new operation's VJP. Here is lesson 1's `gradient_check` once more, on
# all 25 gradients of your tape at once: a central difference of `hinge_loss` along a random
# direction, evaluated outside any tape (so nothing is recorded), against the slope your
# gradients predict. This loss has kinks, one per ReLU and one per hinge, and a nudge that
# crosses one raises a false alarm. So the cell first measures the nearest kink, the smallest
# input any ReLU receives at these parameters, and how far the nudge moves those inputs:

# %% [markdown] key="payoff-nudge" lang="es" src="b41aea2a"
# ### Una pequeña perturbación, la comprobación que no necesita ningún motor
#
# El Paso 5 comparó tu cinta con otro motor de diferenciación automática. Una pequeña
# perturbación no necesita ningún motor, solo el valor de la pérdida, así que comprueba también un
# gradiente que nada más calcula: así comprobarías un motor nuevo, o la VJP de una operación nueva.
# Aquí está otra vez `gradient_check`, de la lección 1, con los 25 gradientes de tu cinta a la vez:
# una diferencia central de `hinge_loss` a lo largo de una dirección aleatoria, evaluada fuera de
# cualquier cinta (así que no se graba nada), frente a la pendiente que predicen tus gradientes.
# Esta pérdida tiene puntos angulosos, uno por cada ReLU y otro por cada *hinge*, y una
# perturbación que cruza uno da una falsa alarma. Por eso la celda mide primero el punto anguloso
# más cercano, la entrada más pequeña que recibe cualquier ReLU con estos parámetros, y cuánto
# mueve la perturbación esas entradas:

# %% [markdown] key="payoff-nudge" lang="pt" src="b41aea2a"
# ### Uma pequena perturbação, a verificação que não precisa de motor
#
# O Passo 5 comparou a sua fita com outro motor de diferenciação automática. Uma pequena
# perturbação não precisa de motor nenhum, só do valor da perda, então ela confere até um
# gradiente que nada mais calcula: é assim que você conferiria um motor novo, ou a VJP de uma
# operação nova. Aqui está de novo `gradient_check`, da lição 1, nos 25 gradientes da sua fita de
# uma vez: uma diferença central de `hinge_loss` ao longo de uma direção sorteada, avaliada fora
# de qualquer fita (então nada é gravado), contra a inclinação que os seus gradientes preveem.
# Essa perda tem pontos angulosos, um por ReLU e um por *hinge*, e uma perturbação que atravessa
# um deles dá um alarme falso. Por isso a célula mede primeiro o ponto anguloso mais próximo, a
# menor entrada que alguma ReLU recebe com estes parâmetros, e quanto a perturbação move essas
# entradas:

# %% [markdown] key="payoff-nudge" lang="ru" src="b41aea2a"
# ### Небольшой сдвиг — проверка, которой не нужен движок
#
# На шаге 5 вы сравнили свою ленту с другим движком автоматического дифференцирования. Сдвигу
# движок не нужен вовсе, нужны только значения функции потерь, поэтому он проверяет и градиент,
# который больше ничто не вычисляет: так проверяют новый движок или VJP новой операции. Вот снова
# `gradient_check` из урока 1 — сразу на всех 25 градиентах вашей ленты: центральная разность
# `hinge_loss` вдоль случайного направления, вычисленная вне всякой ленты (так что ничего не
# записывается), против наклона, который предсказывают ваши градиенты. У этой функции потерь есть
# изломы — по одному на каждую ReLU и на каждый зазор, — и сдвиг, пересекающий излом, поднимает
# ложную тревогу. Поэтому ячейка сначала измеряет ближайший излом — наименьший по модулю вход
# какой-либо ReLU при этих параметрах — и то, насколько сдвиг меняет эти входы:

# %% key="payoff-nudge-code"
def gradient_check(f, x, grad, v):
    h = 1e-5
    nudge = (f(x + h * v) - f(x - h * v)) / (2 * h)
    predicted = float(np.sum(grad * v))
    return [nudge, predicted, abs(nudge - predicted) / max(abs(nudge), abs(predicted))]


def relu_inputs_at(values):
    seen = []

    def watching_relu(x):
        seen.append(constant(x).value)
        return relu(x)

    hinge_loss([Value(v) for v in values], X, Y, watching_relu)
    return np.array(seen)


start = np.array([p.value for p in params])
direction = np.random.default_rng(7).standard_normal(start.size)
inputs_here = relu_inputs_at(start)
moved = np.abs(relu_inputs_at(start + 1e-5 * direction) - inputs_here).max()
print(t("l07.nudge.kink", nearest=f"{np.abs(inputs_here).min():.1e}", reach=f"{moved:.1e}"))


def loss_at(values):
    return hinge_loss([Value(v) for v in values], X, Y, relu).value


nudge, predicted, rel_error = gradient_check(loss_at, start, np.array(ours_grads), direction)
print(t("l07.nudge.check", nudge=f"{nudge:.8f}", predicted=f"{predicted:.8f}", rel_error=f"{rel_error:.1e}"))

# %% [markdown] key="ex4" lang="en"
# ### Exercise 4 · The hinge loss of a linear classifier (2 points)
#
# A linear model, $s(x) = w_1 x_1 + w_2 x_2 + b$, cannot solve XOR, but on data that a straight
# line can separate it is the first thing to try. Write
# `linear_hinge_gradients(w1, w2, b, xs, ys, alpha)`: with **your** tape and the `relu` above,
# record the loss the network trains with,
#
# $$L = \frac{1}{n}\sum_{i=1}^{n} \max\big(0,\ 1 - y_i\, s(x_i)\big) + \alpha\,(w_1^2 + w_2^2 + b^2),$$
#
# and return $\left[\frac{\partial L}{\partial w_1}, \frac{\partial L}{\partial w_2},
# \frac{\partial L}{\partial b}\right]$. `xs` is a list of $n$ pairs `[x1, x2]`, `ys` a list of
# $n$ labels `1.0` or `-1.0`, and `alpha` a number $\geq 0$; all of them are Python floats. A
# point beyond the margin ($y_i\, s(x_i) > 1$) contributes nothing to the gradient: the VJP of
# your `relu` sees to that.

# %% [markdown] key="ex4" lang="es" src="5f23892f"
# ### Ejercicio 4 · La pérdida hinge de un clasificador lineal (2 puntos)
#
# Un modelo lineal, $s(x) = w_1 x_1 + w_2 x_2 + b$, no puede resolver el XOR, pero con datos que
# una recta sí separa es lo primero que conviene probar. Escribe
# `linear_hinge_gradients(w1, w2, b, xs, ys, alpha)`: con **tu** cinta y la `relu` de arriba,
# graba la pérdida con la que se entrena la red,
#
# $$L = \frac{1}{n}\sum_{i=1}^{n} \max\big(0,\ 1 - y_i\, s(x_i)\big) + \alpha\,(w_1^2 + w_2^2 + b^2),$$
#
# y devuelve $\left[\frac{\partial L}{\partial w_1}, \frac{\partial L}{\partial w_2},
# \frac{\partial L}{\partial b}\right]$. `xs` es una lista de $n$ pares `[x1, x2]`; `ys`, una
# lista de $n$ etiquetas `1.0` o `-1.0`, y `alpha`, un número $\geq 0$; todos son `float` de
# Python. Un punto más allá del margen ($y_i\, s(x_i) > 1$) no aporta nada al gradiente: de eso
# se encarga la VJP de tu `relu`.

# %% [markdown] key="ex4" lang="pt" src="5f23892f"
# ### Exercício 4 · A perda hinge de um classificador linear (2 pontos)
#
# Um modelo linear, $s(x) = w_1 x_1 + w_2 x_2 + b$, não resolve o XOR, mas em dados que uma reta
# consegue separar ele é a primeira coisa a tentar. Escreva
# `linear_hinge_gradients(w1, w2, b, xs, ys, alpha)`: com a **sua** fita e a `relu` acima, grave a
# perda com que a rede é treinada,
#
# $$L = \frac{1}{n}\sum_{i=1}^{n} \max\big(0,\ 1 - y_i\, s(x_i)\big) + \alpha\,(w_1^2 + w_2^2 + b^2),$$
#
# e devolva $\left[\frac{\partial L}{\partial w_1}, \frac{\partial L}{\partial w_2},
# \frac{\partial L}{\partial b}\right]$. `xs` é uma lista de $n$ pares `[x1, x2]`, `ys` uma lista
# de $n$ rótulos `1.0` ou `-1.0`, e `alpha` um número $\geq 0$; todos são `float` do Python. Um
# ponto além da margem ($y_i\, s(x_i) > 1$) não contribui em nada para o gradiente: a VJP da sua
# `relu` cuida disso.

# %% [markdown] key="ex4" lang="ru" src="5f23892f"
# ### Упражнение 4 · Hinge-функция потерь линейного классификатора (2 балла)
#
# Линейная модель $s(x) = w_1 x_1 + w_2 x_2 + b$ не справится с XOR, но на данных, которые можно
# разделить прямой, её стоит попробовать первой. Напишите
# `linear_hinge_gradients(w1, w2, b, xs, ys, alpha)`: с помощью **вашей** ленты и `relu` из
# раздела выше запишите функцию потерь, на которой обучается сеть,
#
# $$L = \frac{1}{n}\sum_{i=1}^{n} \max\big(0,\ 1 - y_i\, s(x_i)\big) + \alpha\,(w_1^2 + w_2^2 + b^2),$$
#
# и верните $\left[\frac{\partial L}{\partial w_1}, \frac{\partial L}{\partial w_2},
# \frac{\partial L}{\partial b}\right]$. `xs` — список из $n$ пар `[x1, x2]`, `ys` — список из
# $n$ меток `1.0` или `-1.0`, `alpha` — число $\geq 0$; все числа в них — обычные `float` Python. Точка за
# пределами зазора ($y_i\, s(x_i) > 1$) ничего не добавляет к градиенту: об этом позаботится VJP
# вашей `relu`.

# %% nbgrader="solution" grade_id="l07_ex4_solution"
def linear_hinge_gradients(w1, w2, b, xs, ys, alpha):
    ### BEGIN SOLUTION
    w1, w2, b = Value(w1), Value(w2), Value(b)
    with Tape() as tape:
        for p in (w1, w2, b):
            tape.watch(p)
        total = 0.0
        for (x1, x2), y in zip(xs, ys):
            total = total + relu(1.0 - y * (w1 * x1 + w2 * x2 + b))
        loss = total * (1.0 / len(ys)) + alpha * (w1 * w1 + w2 * w2 + b * b)
    return tape.gradient(loss, [w1, w2, b])
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l07_ex4" points=2
from grader import check
check("l07_ex4")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l07_ex4")
### END HIDDEN TESTS

# %% [markdown] key="train" lang="en"
# Now the training loop: plain gradient descent. Each step does by hand what lesson 6 did with
# `tf.GradientTape` and an optimizer: a **new** tape records the loss, `gradient` walks it
# backwards once, and every parameter moves against its gradient,
# $p \leftarrow p - \eta\, \frac{\partial L}{\partial p}$. This time you write the loop, and you
# write it so that `tf.GradientTape` can run it too. Your `Tape` already speaks the language of
# `tf.GradientTape` (`with`, `watch`, `gradient`). The cell below gives `Value` the two things of
# a `tf.Variable` the loop needs, `assign_sub` (an update in place) and `float(...)`, and names
# the two *kits* the loop can run on: `OURS = (Value, Tape, relu)` and
# `TENSORFLOW = (tf.Variable, tf.GradientTape, tf.nn.relu)`. Updating `p` in place is safe only
# because the step's tape is finished: its records, whose VJPs read the values of their inputs,
# are never used again, and the next step records a fresh tape.

# %% [markdown] key="train" lang="es" src="ef7ca826"
# Ahora el bucle de entrenamiento: descenso del gradiente sin más. Cada paso hace a mano lo que
# la lección 6 hacía con `tf.GradientTape` y un optimizador: una cinta **nueva** graba la pérdida,
# `gradient` la recorre hacia atrás una vez, y cada parámetro se mueve en contra de su gradiente,
# $p \leftarrow p - \eta\, \frac{\partial L}{\partial p}$. Esta vez el bucle lo escribes tú, y lo
# escribes de forma que también pueda ejecutarlo `tf.GradientTape`. Tu `Tape` ya habla el
# idioma de `tf.GradientTape` (`with`, `watch`, `gradient`). La celda de abajo le da a `Value` las
# dos cosas de una `tf.Variable` que necesita el bucle, `assign_sub` (una actualización en su
# sitio) y `float(...)`, y da nombre a los dos *kits* (juegos de piezas intercambiables: el tipo
# de valor, la clase de cinta y la ReLU) con los que puede funcionar el bucle:
# `OURS = (Value, Tape, relu)` y `TENSORFLOW = (tf.Variable, tf.GradientTape, tf.nn.relu)`.
# Actualizar `p` en su sitio solo es seguro porque la cinta del paso ya ha terminado: sus
# registros, cuyas VJP leen los valores de sus entradas, no se vuelven a usar, y el paso
# siguiente graba una cinta nueva.

# %% [markdown] key="train" lang="pt" src="ef7ca826"
# Agora o laço de treinamento: descida do gradiente pura e simples. Cada passo faz à mão o que a
# lição 6 fazia com `tf.GradientTape` e um otimizador: uma fita **nova** grava a perda,
# `gradient` a percorre para trás uma vez, e cada parâmetro anda contra o seu gradiente,
# $p \leftarrow p - \eta\, \frac{\partial L}{\partial p}$. Desta vez quem escreve o laço é você,
# e de um jeito que a `tf.GradientTape` também consiga executá-lo. A sua `Tape` já fala a língua
# da `tf.GradientTape` (`with`, `watch`, `gradient`). A célula abaixo dá a `Value` as duas coisas
# de uma `tf.Variable` de que o laço precisa, `assign_sub` (uma atualização no lugar) e
# `float(...)`, e dá nome aos dois *kits* (conjuntos de peças intercambiáveis: o tipo de valor, a
# classe de fita e a ReLU) com que o laço pode rodar: `OURS = (Value, Tape, relu)` e `TENSORFLOW = (tf.Variable, tf.GradientTape, tf.nn.relu)`. Atualizar `p` no lugar só é
# seguro porque a fita do passo já terminou: os registros dela, cujas VJP leem os valores das
# entradas, nunca mais são usados, e o passo seguinte grava uma fita nova.

# %% [markdown] key="train" lang="ru" src="ef7ca826"
# Теперь цикл обучения: обычный градиентный спуск. Каждый шаг вручную делает то, что в уроке 6
# делали `tf.GradientTape` и оптимизатор: **новая** лента записывает функцию потерь, `gradient`
# один раз проходит её в обратном порядке, и каждый параметр сдвигается против своего градиента:
# $p \leftarrow p - \eta\, \frac{\partial L}{\partial p}$. На этот раз цикл пишете вы, причём
# так, чтобы его могла выполнить и `tf.GradientTape`. Ваша `Tape` уже говорит на языке
# `tf.GradientTape` (`with`, `watch`, `gradient`). Ячейка ниже добавляет к `Value` две
# возможности `tf.Variable`, которые нужны циклу, — `assign_sub` (обновление на месте) и
# `float(...)` — и даёт имена двум *наборам*, на которых может работать цикл:
# `OURS = (Value, Tape, relu)` и `TENSORFLOW = (tf.Variable, tf.GradientTape, tf.nn.relu)`.
# Обновлять `p` на месте безопасно только потому, что лента этого шага уже отработала: её записи,
# чьи VJP читают значения своих входов, больше не используются, а следующий шаг записывает новую
# ленту.

# %% key="kits-code"
def assign_sub(self, delta):
    self.value -= float(delta)
    return self


Value.assign_sub = assign_sub
Value.__float__ = lambda self: self.value

OURS = (Value, Tape, relu)
TENSORFLOW = (lambda v: tf.Variable(v, dtype=tf.float64), tf.GradientTape, tf.nn.relu)

# %% [markdown] key="ex5" lang="en"
# ### Exercise 5 · The training loop, on your tape (2 points)
#
# Write `train_losses(values, xs, ys, learning_rate, steps, kit=OURS)`: plain gradient descent on
# `hinge_loss`, on whichever kit it is given. `values` are the 25 starting values of the parameters
# (Python floats, in the order of `init_params`), `xs` and `ys` points and labels like `X` and `Y`,
# and `kit` one of the two kits above, `(leaf, tape_class, relu_fn)`. Reach everything through the
# kit: the parameters are `leaf(v)`, every recording is made by a `tape_class()`, and `hinge_loss`
# gets `relu_fn`, so that the same loop runs on your tape and on `tf.GradientTape`. Each of the `steps`
# steps records the loss on a new tape, takes the gradient of every parameter from it and moves
# each parameter with `p.assign_sub(learning_rate * g)`. Return
# `[losses, [float(p) for p in params]]`: the `steps` losses as floats, each from before its step's
# update, and the parameters after the last step. The checks call your function with the five data
# arguments, so it runs on your tape; the cell after it swaps in `tf.GradientTape` with one
# argument. Think first: your VJPs read the values of their inputs when the backward pass runs, so
# why must every gradient of a step be computed before the first parameter moves?

# %% [markdown] key="ex5" lang="es" src="04bb5213"
# ### Ejercicio 5 · El bucle de entrenamiento, con tu cinta (2 puntos)
#
# Escribe `train_losses(values, xs, ys, learning_rate, steps, kit=OURS)`: un descenso del gradiente
# simple sobre `hinge_loss`, con el kit que reciba. `values` son los 25 valores iniciales de los
# parámetros (`float` de Python, en el orden de `init_params`); `xs` e `ys`, puntos y etiquetas como
# `X` e `Y`; y `kit`, uno de los dos kits de arriba, `(leaf, tape_class, relu_fn)`. Usa todo a
# través del kit: los parámetros son `leaf(v)`, cada grabación la hace una `tape_class()` y
# `hinge_loss` recibe `relu_fn`, para que el mismo bucle funcione con tu cinta y con
# `tf.GradientTape`. Cada uno de los `steps` pasos graba la pérdida en una cinta nueva, obtiene de ella el
# gradiente de cada parámetro y mueve cada parámetro con `p.assign_sub(learning_rate * g)`.
# Devuelve `[losses, [float(p) for p in params]]`: las `steps` pérdidas como `float`, cada una de
# antes de la actualización de su paso, y los parámetros tras el último paso. Las comprobaciones
# llaman a tu función con los cinco argumentos de datos, así que funciona con tu cinta; la celda
# siguiente pone `tf.GradientTape` en su lugar con un solo argumento. Piensa primero: tus
# VJP leen los valores de sus entradas cuando se ejecuta la pasada hacia atrás; entonces, ¿por qué
# hay que calcular todos los gradientes de un paso antes de mover el primer parámetro?

# %% [markdown] key="ex5" lang="pt" src="04bb5213"
# ### Exercício 5 · O laço de treinamento, com a sua fita (2 pontos)
#
# Escreva `train_losses(values, xs, ys, learning_rate, steps, kit=OURS)`: uma descida do gradiente
# simples sobre `hinge_loss`, com o kit que receber. `values` são os 25 valores iniciais dos
# parâmetros (`float` do Python, na ordem de `init_params`); `xs` e `ys`, pontos e rótulos como `X`
# e `Y`; e `kit`, um dos dois kits acima, `(leaf, tape_class, relu_fn)`. Use tudo por meio do kit:
# os parâmetros são `leaf(v)`, cada gravação é feita por uma `tape_class()` e `hinge_loss` recebe
# `relu_fn`, para que o mesmo laço rode com a sua fita e com a `tf.GradientTape`. Cada um dos `steps`
# passos grava a perda numa fita nova, obtém dela o gradiente de cada parâmetro e move cada
# parâmetro com `p.assign_sub(learning_rate * g)`. Devolva `[losses, [float(p) for p in params]]`:
# as `steps` perdas como `float`, cada uma de antes da atualização do seu passo, e os parâmetros
# depois do último passo. As verificações chamam a sua função com os cinco argumentos de dados,
# então ela roda com a sua fita; a célula seguinte troca pela `tf.GradientTape` com um único
# argumento. Pense primeiro: as suas VJPs leem os valores das entradas quando a passagem para trás
# roda; então, por que todos os gradientes de um passo precisam ser calculados antes de o primeiro
# parâmetro se mover?

# %% [markdown] key="ex5" lang="ru" src="04bb5213"
# ### Упражнение 5 · Цикл обучения на вашей ленте (2 балла)
#
# Напишите функцию `train_losses(values, xs, ys, learning_rate, steps, kit=OURS)`: простой
# градиентный спуск по `hinge_loss` на том наборе, который ей передан. `values` — 25 начальных
# значений параметров (числа `float` Python в порядке `init_params`), `xs` и `ys` — точки и метки,
# как `X` и `Y`, а `kit` — один из двух наборов выше, `(leaf, tape_class, relu_fn)`. Всё берите из
# набора: параметры — это `leaf(v)`, каждую запись делает `tape_class()`, а `hinge_loss` получает
# `relu_fn`, — тогда один и тот же цикл работает и на вашей ленте, и на `tf.GradientTape`. Каждый из
# `steps` шагов записывает функцию потерь на новую ленту, берёт из неё градиент каждого параметра
# и сдвигает каждый параметр с помощью `p.assign_sub(learning_rate * g)`. Верните
# `[losses, [float(p) for p in params]]`: `steps` значений потерь как `float`, каждое — до
# обновления на своём шаге, и параметры после последнего шага. Проверки вызывают функцию с пятью
# аргументами-данными, так что она работает на вашей ленте; следующая ячейка одним аргументом
# подставляет `tf.GradientTape`. Сначала подумайте: ваши VJP читают значения своих входов в момент
# обратного прохода — так почему все градиенты шага нужно вычислить до того, как сдвинется первый
# параметр?

# %% nbgrader="solution" grade_id="l07_ex5_solution"
def train_losses(values, xs, ys, learning_rate, steps, kit=OURS):
    ### BEGIN SOLUTION
    leaf, tape_class, relu_fn = kit
    params = [leaf(v) for v in values]
    losses = []
    for _ in range(steps):
        with tape_class() as tape:
            for p in params:
                tape.watch(p)
            loss = hinge_loss(params, xs, ys, relu_fn)
        grads = tape.gradient(loss, params)
        for p, g in zip(params, grads):
            p.assign_sub(learning_rate * g)
        losses.append(float(loss))
    return [losses, [float(p) for p in params]]
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l07_ex5" points=2
from grader import check
check("l07_ex5")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l07_ex5")
### END HIDDEN TESTS

# %% [markdown] key="swap" lang="en"
# ### The same curve with `tf.GradientTape`
#
# The cell below trains the network twice from the same start, 30 steps with $\eta = 0.5$: once
# with your loop as it is, and once with one argument changed, `kit=TENSORFLOW`. Nothing else
# changes: the same loop and the same `hinge_loss`, now recorded by `tf.GradientTape` on
# `tf.Variable`s. Until exercise 5 is solved, the cell says so and trains nothing.

# %% [markdown] key="swap" lang="es" src="8083fb36"
# ### La misma curva con `tf.GradientTape`
#
# La celda de abajo entrena la red dos veces desde el mismo punto de partida, 30 pasos con
# $\eta = 0{,}5$: una con tu bucle tal como está y otra cambiando un solo argumento,
# `kit=TENSORFLOW`. Nada más cambia: el mismo bucle y la misma `hinge_loss`, ahora grabados por
# `tf.GradientTape` sobre `tf.Variable`. Mientras el ejercicio 5 no esté resuelto, la celda lo
# avisa y no entrena nada.

# %% [markdown] key="swap" lang="pt" src="8083fb36"
# ### A mesma curva com a `tf.GradientTape`
#
# A célula abaixo treina a rede duas vezes a partir do mesmo ponto de partida, 30 passos com
# $\eta = 0{,}5$: uma com o seu laço do jeito que está e outra mudando um único argumento,
# `kit=TENSORFLOW`. Nada mais muda: o mesmo laço e a mesma `hinge_loss`, agora gravados pela
# `tf.GradientTape` sobre `tf.Variable`. Enquanto o exercício 5 não estiver resolvido, a célula
# avisa e não treina nada.

# %% [markdown] key="swap" lang="ru" src="8083fb36"
# ### Та же кривая с `tf.GradientTape`
#
# Ячейка ниже дважды обучает сеть из одной и той же начальной точки, 30 шагов при
# $\eta = 0{,}5$: один раз вашим циклом как есть, другой раз — изменив один аргумент,
# `kit=TENSORFLOW`. Больше ничего не меняется: тот же цикл и та же `hinge_loss`, только теперь их
# записывает `tf.GradientTape` на переменных `tf.Variable`. Пока упражнение 5 не решено, ячейка
# сообщает об этом и ничего не обучает.

# %% key="swap-code"
learning_rate = 0.5
initial = [p.value for p in params]
try:
    losses, trained = train_losses(initial, X, Y, learning_rate, 30)
    tf_losses, _ = train_losses(initial, X, Y, learning_rate, 30, kit=TENSORFLOW)
except (NameError, NotImplementedError):
    losses = None
    print(t("l07.train.todo"))
else:
    params = [Value(v) for v in trained]
    predictions = np.array([score(params, float(x1), float(x2), relu).value for x1, x2 in X])
    accuracy = np.mean(np.sign(predictions) == Y)
    print(tn("l07.payoff.trained.plural", len(losses), first=f"{losses[0]:.3f}", last=f"{losses[-1]:.3f}",
             accuracy=f"{accuracy:.0%}"))
    print(t("l07.train.same", diff=f"{np.max(np.abs(np.array(losses) - np.array(tf_losses))):.1e}"))

# %% [markdown] key="payoff-figure" lang="en"
# On the left, the loss at each step, from your tape (the line) and from `tf.GradientTape` (the
# circles); on the right, what the network learned: the sign of its score over the plane, with
# the boundary $s(x) = 0$ drawn in black. Evaluating the score on a grid needs no tape: with no
# tape active, `record` writes nothing.

# %% [markdown] key="payoff-figure" lang="es" src="de2a0ad3"
# A la izquierda, la pérdida en cada paso, con tu cinta (la línea) y con `tf.GradientTape` (los
# círculos); a la derecha, lo que ha aprendido la red: el signo de su puntuación sobre el plano,
# con la frontera $s(x) = 0$ en negro. Evaluar la puntuación sobre una malla no necesita cinta: si
# no hay ninguna cinta activa, `record` no graba nada.

# %% [markdown] key="payoff-figure" lang="pt" src="de2a0ad3"
# À esquerda, a perda a cada passo, com a sua fita (a linha) e com a `tf.GradientTape` (os
# círculos); à direita, o que a rede aprendeu: o sinal da sua pontuação sobre o plano, com a
# fronteira $s(x) = 0$ em preto. Avaliar a pontuação numa grade não precisa de fita: sem nenhuma
# fita ativa, `record` não grava nada.

# %% [markdown] key="payoff-figure" lang="ru" src="de2a0ad3"
# Слева — потери на каждом шаге, полученные вашей лентой (линия) и `tf.GradientTape`
# (кружки), справа — то, чему научилась сеть: знак её оценки на плоскости, граница $s(x) = 0$
# показана чёрным. Чтобы вычислить оценку на сетке, лента не нужна: когда ни одна лента не
# активна, `record` ничего не записывает.

# %% key="payoff-figure-code"
if losses is not None:
    grid = np.linspace(-2.5, 2.5, 31)
    surface = np.array([[score(params, float(a), float(b), relu).value for a in grid] for b in grid])

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    steps_axis = range(1, len(losses) + 1)
    left.plot(steps_axis, losses, color="C0", label=t("l07.train.ours"))
    left.plot(steps_axis, tf_losses, "o", color="C1", markersize=4, label="tf.GradientTape")
    left.set(xlabel=t("l07.payoff.fig.step"), ylabel=t("l07.payoff.fig.loss"), title=t("l07.payoff.fig.loss_title"))
    left.legend(fontsize=8)
    right.contourf(grid, grid, surface, levels=[surface.min() - 1, 0, surface.max() + 1],
                   colors=["C4", "C0"], alpha=0.25)
    right.contour(grid, grid, surface, levels=[0], colors="k", linewidths=1)
    right.scatter(*X[Y > 0].T, color="C0", marker="o", edgecolor="k", label=t("l07.payoff.fig.class", label="+1"))
    right.scatter(*X[Y < 0].T, color="C4", marker="^", edgecolor="k", label=t("l07.payoff.fig.class", label="−1"))
    right.set(xlabel="$x_1$", ylabel="$x_2$", title=t("l07.payoff.fig.boundary_title"))
    right.legend(fontsize=8, loc="lower left")
    fig.tight_layout()
    describe(t("l07.payoff.alt"))
    plt.show()

# %% [markdown] key="payoff-done" lang="en"
# What you just did is what every framework does when it trains a model: record the forward
# pass, walk it backwards adding up VJP contributions, move the parameters against their
# gradients, and start the next step with a fresh tape. What minitape and TensorFlow change is
# the scale, not the idea. <!-- claim: l07.kit-swap --> There a layer is one matrix product on tensors — one record with one
# VJP — instead of the dozens of scalar multiplications and additions per point that your tape
# wrote, which is why real engines work on tensors: the bookkeeping per record is the same, but
# each record does thousands of arithmetic operations at once.

# %% [markdown] key="payoff-done" lang="es" src="8b665eca"
# Lo que acabas de hacer es lo que hace cualquier biblioteca de aprendizaje profundo cuando
# entrena un modelo: grabar la
# pasada hacia adelante, recorrerla hacia atrás sumando las contribuciones de las VJP, mover los
# parámetros en contra de sus gradientes y empezar el paso siguiente con una cinta nueva. Lo que
# cambian minitape y TensorFlow es la escala, no la idea. <!-- claim: l07.kit-swap --> Allí una capa es un único producto de
# matrices sobre tensores —un registro con una VJP— en lugar de las decenas de multiplicaciones
# y sumas escalares por punto que grabó tu cinta. Por eso los motores reales trabajan con
# tensores: el trabajo de gestión por registro es el mismo, pero cada registro hace miles de
# operaciones aritméticas de una vez.

# %% [markdown] key="payoff-done" lang="pt" src="8b665eca"
# O que você acabou de fazer é o que toda biblioteca de aprendizado profundo faz ao treinar um
# modelo: gravar a passagem
# para a frente, percorrê-la para trás somando as contribuições das VJP, mover os parâmetros
# contra os seus gradientes e começar o passo seguinte com uma fita nova. O que o minitape e o
# TensorFlow mudam é a escala, não a ideia. <!-- claim: l07.kit-swap --> Lá uma camada é um único produto de matrizes sobre
# tensores — um registro com uma VJP — em vez das dezenas de multiplicações e somas escalares por
# ponto que a sua fita gravou. É por isso que os motores de verdade trabalham com tensores: o
# custo de controle por registro é o mesmo, mas cada registro faz milhares de operações
# aritméticas de uma vez.

# %% [markdown] key="payoff-done" lang="ru" src="8b665eca"
# То, что вы сейчас сделали, делает любая библиотека глубокого обучения, когда обучает модель: записывает прямой
# проход, проходит его в обратном порядке, складывая вклады VJP, сдвигает параметры против их
# градиентов и начинает следующий шаг с новой ленты. minitape и TensorFlow меняют масштаб, а не
# идею. <!-- claim: l07.kit-swap --> Там слой — это одно произведение матриц над тензорами, одна запись с одной VJP, а не
# десятки скалярных умножений и сложений на каждую точку, которые записала ваша лента. Поэтому
# настоящие движки работают с тензорами: накладные расходы на одну запись те же, но каждая
# запись выполняет тысячи арифметических операций сразу.

# %% [markdown] key="tensor-tape" lang="en"
# ## Optional · A tape for tensors
#
# Your tape records one number per `Value`. minitape and TensorFlow record whole arrays, and
# their reverse loop is yours, unchanged: walk the records backwards, call each VJP, add up the
# contributions. <!-- claim: l07.tensor-tape --> What changes are the VJPs, and two rules cover a dense layer
# $Y = XW + b$, with $\bar Y$ the gradient that arrives from above:
#
# - **matmul**: for $Y = XW$ with $X$ of shape (n, k) and $W$ of shape (k, m),
#   $\bar X = \bar Y\, W^\top$ and $\bar W = X^\top\, \bar Y$ (check the shapes: each gradient has
#   the shape of its input);
# - **broadcasting**: $b$ of shape (m,) is added to every one of the $n$ rows, so it is used $n$
#   times, and a value used several times receives the sum of its contributions (Step 4). Its
#   gradient is $\bar Y$ summed over the rows: **unbroadcast = sum**, over every axis that
#   broadcasting added in front and over every axis of length 1 that it stretched.
#
# The cell below computes the three gradients with these two rules in NumPy and compares them
# with minitape's tape, given the same $\bar Y$ (`output_gradients`). <!-- claim: l07.tensor-tape -->

# %% [markdown] key="tensor-tape" lang="es" src="a8c6b46e"
# ## Opcional · Una cinta para tensores
#
# Tu cinta graba un número por cada `Value`. minitape y TensorFlow graban arrays enteros, y su
# bucle inverso es el tuyo, sin cambios: recorrer los registros hacia atrás, llamar a cada VJP y
# sumar las contribuciones. <!-- claim: l07.tensor-tape --> Lo que cambia son las VJP, y dos reglas bastan para una capa densa
# $Y = XW + b$, con $\bar Y$ el gradiente que llega desde arriba:
#
# - **matmul**: para $Y = XW$, con $X$ de forma (n, k) y $W$ de forma (k, m),
#   $\bar X = \bar Y\, W^\top$ y $\bar W = X^\top\, \bar Y$ (comprueba las formas: cada gradiente
#   tiene la forma de su entrada);
# - ***broadcasting*** (la expansión automática de una forma a otra mayor, como en NumPy): $b$,
#   de forma (m,), se suma a cada una de las $n$ filas, así que se usa
#   $n$ veces, y un valor usado varias veces recibe la suma de sus contribuciones (Paso 4). <!-- claim: l07.tensor-tape --> Su
#   gradiente es $\bar Y$ sumado sobre las filas: **deshacer el *broadcasting* = sumar**, sobre
#   cada eje que el *broadcasting* añadió delante y sobre cada eje de longitud 1 que estiró.
#
# La celda de abajo calcula los tres gradientes con estas dos reglas en NumPy y los compara con
# la cinta de minitape, que recibe el mismo $\bar Y$ (`output_gradients`). <!-- claim: l07.tensor-tape -->

# %% [markdown] key="tensor-tape" lang="pt" src="a8c6b46e"
# ## Opcional · Uma fita para tensores
#
# A sua fita grava um número por `Value`. O minitape e o TensorFlow gravam arrays inteiros, e o
# laço reverso deles é o seu, sem mudanças: percorrer os registros de trás para a frente, chamar
# cada VJP e somar as contribuições. <!-- claim: l07.tensor-tape --> O que muda são as VJP, e duas regras bastam para uma camada
# densa $Y = XW + b$, com $\bar Y$ o gradiente que chega de cima:
#
# - **matmul**: para $Y = XW$, com $X$ de formato (n, k) e $W$ de formato (k, m),
#   $\bar X = \bar Y\, W^\top$ e $\bar W = X^\top\, \bar Y$ (confira os formatos: cada gradiente
#   tem o formato da sua entrada);
# - ***broadcasting*** (a expansão automática de um formato para outro maior, como no NumPy): $b$,
#   de formato (m,), é somado a cada uma das $n$ linhas, então é usado
#   $n$ vezes, e um valor usado várias vezes recebe a soma das suas contribuições (Passo 4). <!-- claim: l07.tensor-tape --> O seu
#   gradiente é $\bar Y$ somado sobre as linhas: **desfazer o *broadcasting* = somar**, sobre cada
#   eixo que o *broadcasting* acrescentou na frente e sobre cada eixo de comprimento 1 que ele
#   esticou.
#
# A célula abaixo calcula os três gradientes com essas duas regras em NumPy e os compara com a
# fita do minitape, que recebe o mesmo $\bar Y$ (`output_gradients`). <!-- claim: l07.tensor-tape -->

# %% [markdown] key="tensor-tape" lang="ru" src="a8c6b46e"
# ## Дополнительно · Лента для тензоров
#
# Ваша лента записывает по одному числу на каждый `Value`. minitape и TensorFlow записывают
# целые массивы, а обратный цикл у них тот же, что у вас: пройти записи в обратном порядке,
# вызвать каждую VJP и сложить вклады. <!-- claim: l07.tensor-tape --> Меняются только VJP, и для полносвязного слоя
# $Y = XW + b$ хватает двух правил ($\bar Y$ — градиент, пришедший сверху):
#
# - **matmul**: для $Y = XW$, где $X$ формы (n, k), а $W$ формы (k, m),
#   $\bar X = \bar Y\, W^\top$ и $\bar W = X^\top\, \bar Y$ (проверьте формы: у каждого градиента
#   форма его входа);
# - ***транслирование*** (*broadcasting*: автоматическое расширение одной формы до другой, как в
#   NumPy): $b$ формы (m,) прибавляется к каждой из $n$ строк, то есть используется $n$ раз, а значение, использованное несколько раз, получает сумму своих вкладов (шаг 4). <!-- claim: l07.tensor-tape --> Его
#   градиент — это $\bar Y$, просуммированный по строкам: **обратное транслирование =
#   суммирование** по каждой оси, которую транслирование добавило спереди, и по каждой оси длины 1,
#   которую оно растянуло.
#
# Ячейка ниже вычисляет три градиента по этим двум правилам в NumPy и сравнивает их с лентой
# minitape, получившей тот же $\bar Y$ (`output_gradients`). <!-- claim: l07.tensor-tape -->

# %% key="tensor-tape-code"
layer_rng = np.random.default_rng(3)
X_in, W_in, b_in = layer_rng.normal(size=(4, 3)), layer_rng.normal(size=(3, 2)), layer_rng.normal(size=2)
Y_bar = layer_rng.normal(size=(4, 2))

ours_tensor = [Y_bar @ W_in.T, X_in.T @ Y_bar, Y_bar.sum(axis=0)]

x_t, w_t, b_t = (tf.Variable(a) for a in (X_in, W_in, b_in))
with tf.GradientTape() as layer_tape:
    y_t = tf.matmul(x_t, w_t) + b_t
theirs_tensor = layer_tape.gradient(y_t, [x_t, w_t, b_t], output_gradients=tf.constant(Y_bar))

for name, a, g in zip(["dX", "dW", "db"], ours_tensor, theirs_tensor):
    print(f"{name} {a.shape}: max |ours_tensor - theirs_tensor| = {np.max(np.abs(a - g.numpy())):.1e}")

# %% [markdown] key="ex6" lang="en"
# ### Exercise 6 (optional) · Unbroadcast = sum (no points)
#
# Write `unbroadcast(grad, shape)`: `grad` is a NumPy array, the gradient of a result that
# broadcasting gave a larger shape, and `shape` (a tuple) is the shape of the input it came
# from. <!-- claim: l07.ex6-input --> Return the input's gradient, an array of shape `shape`: sum `grad` over the leading axes
# that broadcasting added, then over every axis where `shape` has length 1 and `grad` does not
# (`keepdims=True` keeps that axis). For example, for `grad` of shape (4, 2) and `shape` (2,) the
# answer is `grad.sum(axis=0)`, and for `grad` of shape (2, 3, 4) and `shape` (3, 1) it is
# `grad.sum(axis=0).sum(axis=1, keepdims=True)`. minitape does exactly this in one place for
# every operation that broadcasts: its tape sums each such gradient back to the shape of the
# input (`unbroadcast` in autograd, the Harvard HIPS group's library that preceded JAX, does the
# same). <!-- claim: l07.unbroadcast-minitape -->
#
# *Optional: `check` and the grader run this exercise's checks and show the result, and it adds
# no points.*

# %% [markdown] key="ex6" lang="es" src="2f376782"
# ### Ejercicio 6 (opcional) · Deshacer el *broadcasting* = sumar (sin puntos)
#
# Escribe `unbroadcast(grad, shape)`: `grad` es un array de NumPy, el gradiente de un resultado al
# que el *broadcasting* dio una forma mayor, y `shape` (una tupla) es la forma de la entrada de la
# que salió. <!-- claim: l07.ex6-input --> Devuelve el gradiente de la entrada, un array de forma `shape`: suma `grad` sobre los
# ejes iniciales que añadió el *broadcasting* y después sobre cada eje en el que `shape` tiene
# longitud 1 y `grad` no (`keepdims=True` conserva ese eje). Por ejemplo, para `grad` de forma
# (4, 2) y `shape` (2,) la respuesta es `grad.sum(axis=0)`, y para `grad` de forma (2, 3, 4) y
# `shape` (3, 1) es `grad.sum(axis=0).sum(axis=1, keepdims=True)`. minitape hace exactamente
# esto en un solo lugar para todas las operaciones con *broadcasting*: su cinta suma cada uno de
# esos gradientes hasta devolverlo a la forma de la entrada (la función `unbroadcast` de autograd,
# la biblioteca del grupo HIPS de Harvard que precedió a JAX, hace lo mismo). <!-- claim: l07.unbroadcast-minitape -->
#
# *Opcional: `check` y el corrector ejecutan las comprobaciones de este ejercicio y muestran el
# resultado, pero no suma puntos.*

# %% [markdown] key="ex6" lang="pt" src="2f376782"
# ### Exercício 6 (opcional) · Desfazer o *broadcasting* = somar (sem pontos)
#
# Escreva `unbroadcast(grad, shape)`: `grad` é um array do NumPy, o gradiente de um resultado ao
# qual o *broadcasting* deu um formato maior, e `shape` (uma tupla) é o formato da entrada de onde
# ele veio. <!-- claim: l07.ex6-input --> Devolva o gradiente da entrada, um array de formato `shape`: some `grad` sobre os eixos
# iniciais que o *broadcasting* acrescentou e depois sobre cada eixo em que `shape` tem
# comprimento 1 e `grad` não (`keepdims=True` mantém esse eixo). Por exemplo, para `grad` de
# formato (4, 2) e `shape` (2,) a resposta é `grad.sum(axis=0)`, e para `grad` de formato
# (2, 3, 4) e `shape` (3, 1) é `grad.sum(axis=0).sum(axis=1, keepdims=True)`. O minitape faz
# exatamente isso num único lugar para todas as operações com *broadcasting*: a fita dele soma
# cada um desses gradientes até devolvê-lo ao formato da entrada (a função `unbroadcast` do
# autograd, a biblioteca do grupo HIPS de Harvard que precedeu o JAX, faz o mesmo). <!-- claim: l07.unbroadcast-minitape -->
#
# *Opcional: `check` e o corretor executam as verificações deste exercício e mostram o
# resultado, mas ele não soma pontos.*

# %% [markdown] key="ex6" lang="ru" src="2f376782"
# ### Упражнение 6 (необязательное) · Обратное транслирование = суммирование (без баллов)
#
# Напишите функцию `unbroadcast(grad, shape)`: `grad` — массив NumPy, градиент результата,
# которому транслирование (*broadcasting*) дало бо́льшую форму, а `shape` (кортеж) — форма входа, из которого он
# получился. <!-- claim: l07.ex6-input --> Верните градиент входа — массив формы `shape`: просуммируйте `grad` по ведущим
# осям, которые добавило транслирование, а затем по каждой оси, где у `shape` длина 1, а у `grad`
# нет (`keepdims=True` сохраняет эту ось). Например, для `grad` формы (4, 2) и `shape` (2,)
# ответ — `grad.sum(axis=0)`, а для `grad` формы (2, 3, 4) и `shape` (3, 1) —
# `grad.sum(axis=0).sum(axis=1, keepdims=True)`. minitape делает ровно это в одном месте для
# всех операций с транслированием: его лента суммирует каждый такой градиент обратно до формы
# входа (так же работает функция `unbroadcast` в autograd — библиотеке группы HIPS из Гарварда,
# предшественнице JAX). <!-- claim: l07.unbroadcast-minitape -->
#
# *Необязательное: `check` и система проверки выполняют проверки этого упражнения и показывают
# результат, но баллов оно не добавляет.*

# %% nbgrader="solution" grade_id="l07_ex6_solution"
def unbroadcast(grad, shape):
    ### BEGIN SOLUTION
    grad = np.asarray(grad)
    while grad.ndim > len(shape):
        grad = grad.sum(axis=0)
    for axis, length in enumerate(shape):
        if length == 1 and grad.shape[axis] != 1:
            grad = grad.sum(axis=axis, keepdims=True)
    return grad
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l07_ex6" points=0
from grader import check
check("l07_ex6")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l07_ex6")
### END HIDDEN TESTS

# %% [markdown] key="to-tensorflow" lang="en"
# ## From minitape to TensorFlow
#
# The tapes, gradients and training loops of this course run unchanged with
# `import tensorflow as tf` in place of `import minitape as tf`: that one line is the switch, for
# every cell but those whose first line says they use the course's own tools (the drawings,
# `stepper` and `why_none` of `minitape.debugging`, lesson 4's `minitape._custom.restore_gradient`,
# the helpers of `lessons.widgets`, and `check`); a test runs every lesson both ways. <!-- claim: course.runs-on-tensorflow --> The tape you
# used, and the one you just
# built, is the heart of TensorFlow's eager mode. <!-- claim: l07.eager-tape --> Around it, TensorFlow adds: <!-- claim: l07.tf-adds -->
#
# - `@tf.function`, which traces a Python function into a graph (once per new kind of input) and then
#   runs the graph:
#   a training step becomes much faster, and Python side effects (a `print`, appending to a
#   list) happen only while tracing;
# - `Model.fit`, which runs the loop of lesson 6 for you. To change what one step does, override
#   `train_step(self, data)` in a subclass of `tf.keras.Model`: inside it you write the same
#   tape, `tape.gradient` and `optimizer.apply_gradients`;
# - `tf.clip_by_global_norm(grads, c)`, which clips all the gradients together by their joint
#   norm (lesson 6 clipped each one on its own), and the optimizers' `global_clipnorm=` argument, which does
#   it inside `apply_gradients` (their `clipnorm=` clips each gradient on its own, as lesson 6 did); <!-- claim: l07.clipnorm -->
# - `tape.jacobian(..., experimental_use_pfor=True)`, the default, which computes all the rows of
#   a Jacobian in one vectorized pass instead of one backward pass per row (minitape does the same); <!-- claim: l05.jacobian-vectorized -->
# - `tf.saved_model.save(model, path)`, which stores the variables and the traced graphs, so that
#   the model runs without your Python code (TensorFlow Serving, LiteRT on phones); <!-- claim: l07.tf-adds -->
# - GPUs and TPUs at scale, mixed precision and distribution over several devices.
#
# None of these changes what a gradient is or how the tape computes it.

# %% [markdown] key="to-tensorflow" lang="es" src="f897d2d9"
# ## De minitape a TensorFlow
#
# Las cintas, los gradientes y los bucles de entrenamiento de este curso funcionan sin cambios con
# `import tensorflow as tf` en lugar de `import minitape as tf`: esa línea es el interruptor, para
# todas las celdas salvo las que dicen en su primera línea que usan herramientas propias del curso
# (los dibujos, `stepper` y `why_none` de `minitape.debugging`, el `minitape._custom.restore_gradient`
# de la lección 4, las ayudas de `lessons.widgets` y `check`); una prueba ejecuta cada lección de
# las dos maneras. <!-- claim: course.runs-on-tensorflow --> La cinta que has usado, y la que
# acabas de construir, es el corazón de la ejecución inmediata (*eager*) de TensorFlow. <!-- claim: l07.eager-tape --> A su alrededor, TensorFlow
# añade: <!-- claim: l07.tf-adds -->
#
# - `@tf.function`, que traza una función de Python como un grafo (una vez por cada tipo nuevo de
#   entrada) y después ejecuta el grafo: un paso de entrenamiento se vuelve mucho más rápido, y los efectos secundarios de
#   Python (un `print`, añadir algo a una lista) solo ocurren durante el trazado;
# - `Model.fit`, que ejecuta por ti el bucle de la lección 6. Para cambiar lo que hace un paso,
#   redefine `train_step(self, data)` en una subclase de `tf.keras.Model`: dentro escribes la
#   misma cinta, `tape.gradient` y `optimizer.apply_gradients`;
# - `tf.clip_by_global_norm(grads, c)`, que recorta todos los gradientes juntos según su norma
#   conjunta (la lección 6 recortaba cada uno por separado), y el argumento `global_clipnorm=`
#   de los optimizadores, que lo hace dentro de `apply_gradients` (su `clipnorm=` recorta cada
#   gradiente por separado, como la lección 6); <!-- claim: l07.clipnorm -->
# - `tape.jacobian(..., experimental_use_pfor=True)`, la opción por defecto, que calcula todas
#   las filas de un jacobiano en una sola pasada vectorizada en lugar de una pasada hacia atrás
#   por fila (minitape hace lo mismo); <!-- claim: l05.jacobian-vectorized -->
# - `tf.saved_model.save(model, path)`, que guarda las variables y los grafos trazados para que
#   el modelo funcione sin tu código de Python (TensorFlow Serving, LiteRT en dispositivos móviles); <!-- claim: l07.tf-adds -->
# - GPU y TPU a gran escala, precisión mixta y distribución entre varios dispositivos.
#
# Nada de esto cambia qué es un gradiente ni cómo lo calcula la cinta.

# %% [markdown] key="to-tensorflow" lang="pt" src="f897d2d9"
# ## Do minitape ao TensorFlow
#
# As fitas, os gradientes e os laços de treinamento deste curso rodam sem mudanças com
# `import tensorflow as tf` no lugar de `import minitape as tf`: essa linha é a chave, para todas
# as células menos as que dizem na primeira linha que usam ferramentas próprias do curso (os
# desenhos, o `stepper` e o `why_none` de `minitape.debugging`, o `minitape._custom.restore_gradient`
# da lição 4, os auxiliares de `lessons.widgets` e o `check`); um teste roda cada lição dos dois
# jeitos. <!-- claim: course.runs-on-tensorflow --> A fita que você usou, e a que acabou de
# construir, é o coração da execução imediata (*eager*) do TensorFlow. <!-- claim: l07.eager-tape --> Em volta dela, o TensorFlow acrescenta: <!-- claim: l07.tf-adds -->
#
# - `@tf.function`, que rastreia uma função Python como um grafo (uma vez para cada tipo novo de
#   entrada) e depois executa o grafo: um passo de treinamento fica muito mais rápido, e os efeitos colaterais do Python
#   (um `print`, acrescentar algo a uma lista) só acontecem durante o rastreamento;
# - `Model.fit`, que roda para você o laço da lição 6. Para mudar o que um passo faz, redefina
#   `train_step(self, data)` numa subclasse de `tf.keras.Model`: lá dentro você escreve a mesma
#   fita, `tape.gradient` e `optimizer.apply_gradients`;
# - `tf.clip_by_global_norm(grads, c)`, que recorta todos os gradientes juntos pela norma
#   conjunta deles (a lição 6 recortava cada um separadamente), e o argumento `global_clipnorm=` dos
#   otimizadores, que faz isso dentro de `apply_gradients` (o `clipnorm=` deles recorta cada
#   gradiente separadamente, como a lição 6); <!-- claim: l07.clipnorm -->
# - `tape.jacobian(..., experimental_use_pfor=True)`, o padrão, que calcula todas as linhas de
#   uma jacobiana numa única passagem vetorizada em vez de uma passagem para trás por linha
#   (o minitape faz o mesmo); <!-- claim: l05.jacobian-vectorized -->
# - `tf.saved_model.save(model, path)`, que guarda as variáveis e os grafos rastreados para que o
#   modelo rode sem o seu código Python (TensorFlow Serving, LiteRT em dispositivos móveis); <!-- claim: l07.tf-adds -->
# - GPUs e TPUs em grande escala, precisão mista e distribuição entre vários dispositivos.
#
# Nada disso muda o que é um gradiente nem como a fita o calcula.

# %% [markdown] key="to-tensorflow" lang="ru" src="f897d2d9"
# ## От minitape к TensorFlow
#
# Ленты, градиенты и циклы обучения из этого курса работают без изменений, если вместо
# `import minitape as tf` написать `import tensorflow as tf`: переключение — это одна строка для
# всех ячеек, кроме тех, в первой строке которых сказано, что они используют инструменты самого
# курса (рисунки, `stepper` и `why_none` из `minitape.debugging`, `minitape._custom.restore_gradient`
# из урока 4, помощники из `lessons.widgets` и `check`); тест прогоняет каждый урок обоими
# способами. <!-- claim: course.runs-on-tensorflow --> Лента, которой вы пользовались, и
# та, которую вы только что построили, — сердце режима немедленного выполнения (eager) в
# TensorFlow. <!-- claim: l07.eager-tape --> Вокруг неё TensorFlow
# добавляет: <!-- claim: l07.tf-adds -->
#
# - `@tf.function`: функция Python трассируется в граф (по разу на каждый новый вид входа), а дальше
#   выполняется граф;
#   шаг обучения становится намного быстрее, а побочные эффекты Python (`print`, добавление в
#   список) происходят только во время трассировки;
# - `Model.fit`, который сам выполняет цикл из урока 6. Чтобы изменить то, что делает один шаг,
#   переопределите `train_step(self, data)` в подклассе `tf.keras.Model`: внутри вы пишете ту же
#   ленту, `tape.gradient` и `optimizer.apply_gradients`;
# - `tf.clip_by_global_norm(grads, c)`: все градиенты обрезаются вместе по их общей норме (в
#   уроке 6 каждый обрезался отдельно), а аргумент оптимизаторов `global_clipnorm=` делает
#   это внутри `apply_gradients` (их `clipnorm=` обрезает каждый градиент отдельно, как в уроке 6); <!-- claim: l07.clipnorm -->
# - `tape.jacobian(..., experimental_use_pfor=True)` (так по умолчанию): все строки якобиана
#   вычисляются за один векторизованный проход, а не по одному обратному проходу на строку (minitape
#   делает так же); <!-- claim: l05.jacobian-vectorized -->
# - `tf.saved_model.save(model, path)`: сохраняются переменные и трассированные графы, и модель
#   работает без вашего кода на Python (TensorFlow Serving, LiteRT на телефоне); <!-- claim: l07.tf-adds -->
# - GPU и TPU в большом масштабе, смешанная точность и распределение по нескольким устройствам.
#
# Ничто из этого не меняет того, что такое градиент и как его вычисляет лента.

# %% [markdown] key="summary" lang="en"
# ## Summary
#
# - A tape is a list of records `(op, output, inputs, vjp)`, written during the forward pass,
#   only for operations that touch a watched value ("record only if watched").
# - A VJP maps the gradient of an operation's output to the gradients of its inputs; it may use
#   the inputs or the output, which is why a tape keeps them alive.
# - The backward pass walks the records in reverse order — already a valid order, no sorting
#   and no recursion — and **adds** contributions, because a value used twice has two.
# - Gradients live in a dictionary local to one call, so asking twice gives the same answer;
#   gradients stored on the nodes (micrograd) pile up.
# - Your tape computes the same numbers as `tf.GradientTape`; what minitape and
#   TensorFlow add is tensors, broadcasting, many more operations and careful memory
#   management — not a different idea. <!-- claim: l07.kit-swap -->
# - With nothing more, your tape trains a neural network: a fresh tape per step, one `gradient`
#   call, an update against the gradient. That is the loop every framework runs, on scalars
#   instead of tensors.

# %% [markdown] key="summary" lang="es" src="ea08b3fc"
# ## Resumen
#
# - Una cinta es una lista de registros `(op, output, inputs, vjp)` que se escribe durante la
#   pasada hacia adelante, solo para las operaciones que tocan un valor observado («grabar
#   solo si se observa»).
# - Una VJP lleva el gradiente de la salida de una operación a los gradientes de sus entradas;
#   puede usar las entradas o la salida, y por eso la cinta las mantiene vivas.
# - La pasada hacia atrás recorre los registros en orden inverso (que ya es un orden válido:
#   sin ordenar y sin recursión) y **suma** las contribuciones, porque un valor usado dos
#   veces recibe dos.
# - Los gradientes viven en un diccionario local a cada llamada, así que preguntar dos veces da
#   la misma respuesta; los gradientes guardados en los nodos (micrograd) se acumulan.
# - Tu cinta calcula los mismos números que `tf.GradientTape`; lo que añaden
#   minitape y TensorFlow son tensores, *broadcasting*, muchas más operaciones y una gestión
#   cuidadosa de la memoria, no una idea distinta. <!-- claim: l07.kit-swap -->
# - Sin nada más, tu cinta entrena una red neuronal: una cinta nueva en cada paso, una llamada a
#   `gradient` y una actualización en contra del gradiente. Es el bucle que ejecuta cualquier
#   biblioteca de aprendizaje profundo, con escalares en lugar de tensores.

# %% [markdown] key="summary" lang="pt" src="ea08b3fc"
# ## Resumo
#
# - Uma fita é uma lista de registros `(op, output, inputs, vjp)` escrita durante a passagem
#   para a frente, só para as operações que tocam um valor observado (“gravar só o que é
#   observado”).
# - Uma VJP leva o gradiente da saída de uma operação aos gradientes das suas entradas; ela pode
#   usar as entradas ou a saída, e por isso a fita as mantém vivas.
# - A passagem para trás percorre os registros na ordem inversa (que já é uma ordem válida:
#   sem ordenação e sem recursão) e **soma** as contribuições, porque um valor usado duas vezes
#   recebe duas.
# - Os gradientes vivem em um dicionário local a cada chamada, então perguntar duas vezes dá a
#   mesma resposta; gradientes guardados nos nós (micrograd) se acumulam.
# - A sua fita calcula os mesmos números que a `tf.GradientTape`; o que o
#   minitape e o TensorFlow acrescentam são tensores, *broadcasting*, muito mais operações e um
#   gerenciamento cuidadoso da memória, não uma ideia diferente. <!-- claim: l07.kit-swap -->
# - Sem mais nada, a sua fita treina uma rede neural: uma fita nova a cada passo, uma chamada a
#   `gradient` e uma atualização contra o gradiente. É o laço que toda biblioteca de aprendizado
#   profundo executa, com escalares em vez de tensores.

# %% [markdown] key="summary" lang="ru" src="ea08b3fc"
# ## Итоги
#
# - Лента — это список записей `(op, output, inputs, vjp)`, который пишется во время прямого
#   прохода и только для операций, затрагивающих отслеживаемое значение («записывать, только
#   если отслеживается»).
# - VJP переводит градиент выхода операции в градиенты её входов; ей могут понадобиться входы
#   или выход, поэтому лента удерживает их в памяти.
# - Обратный проход идёт по записям в обратном порядке — он уже правильный, без сортировки и
#   без рекурсии — и **складывает** вклады, потому что значение, использованное дважды,
#   получает два вклада.
# - Градиенты живут в словаре, локальном для одного вызова, поэтому повторный вопрос даёт тот
#   же ответ; градиенты, хранящиеся в узлах (как в micrograd), накапливаются.
# - Ваша лента вычисляет те же числа, что и `tf.GradientTape`; minitape и
#   TensorFlow добавляют к этому тензоры, транслирование, гораздо больше операций и аккуратное
#   обращение с памятью — но не другую идею. <!-- claim: l07.kit-swap -->
# - Больше ничего не нужно: ваша лента обучает нейронную сеть — новая лента на каждом шаге, один
#   вызов `gradient`, сдвиг против градиента. Это тот же цикл, что и в любой библиотеке глубокого
#   обучения, только на скалярах вместо тензоров.

# %% [markdown] key="reflect" lang="en" questions=true
# 1. Your tape walks its records in reverse order and never sorts them. What change to the engine
#    would break that guarantee? (Think of values changed in place, or of records added while a
#    backward pass runs.)
# 2. micrograd stores gradients on the nodes; your tape keeps them in a dictionary local to one
#    call. What does each design make easy, and what does each make easy to get wrong?
# 3. What would you have to add to your tape so that it computes second derivatives, as nested
#    `tf.GradientTape`s do?

# %% [markdown] key="reflect" lang="es" src="9a16a5cb"
# 1. Tu cinta recorre sus registros en orden inverso y nunca los ordena. ¿Qué cambio en el motor
#    rompería esa garantía? (Piensa en valores que se modifican en su sitio, o en registros que se
#    añaden mientras se ejecuta una pasada hacia atrás).
# 2. micrograd guarda los gradientes en los nodos; tu cinta, en un diccionario local a cada
#    llamada. ¿Qué facilita cada diseño, y en qué facilita equivocarse?
# 3. ¿Qué tendrías que añadir a tu cinta para que calcule segundas derivadas, como hacen las
#    `tf.GradientTape` anidadas?

# %% [markdown] key="reflect" lang="pt" src="9a16a5cb"
# 1. A sua fita percorre os registros na ordem inversa e nunca os ordena. Que mudança no motor
#    quebraria essa garantia? (Pense em valores modificados no lugar, ou em registros
#    acrescentados enquanto uma passagem para trás está rodando.)
# 2. O micrograd guarda os gradientes nos nós; a sua fita, num dicionário local a cada chamada. O
#    que cada abordagem facilita, e em que cada uma facilita errar?
# 3. O que você precisaria acrescentar à sua fita para que ela calcule segundas derivadas, como
#    fazem as `tf.GradientTape` aninhadas?

# %% [markdown] key="reflect" lang="ru" src="9a16a5cb"
# 1. Ваша лента проходит записи в обратном порядке и никогда их не сортирует. Какое изменение в
#    движке нарушило бы эту гарантию? (Подумайте о значениях, которые меняются на месте, или о
#    записях, добавляемых во время обратного прохода.)
# 2. micrograd хранит градиенты в узлах, а ваша лента — в словаре, локальном для одного вызова.
#    Что упрощает каждый из подходов и в чём с каждым из них легко ошибиться?
# 3. Что нужно добавить в вашу ленту, чтобы она вычисляла вторые производные, как это делают
#    вложенные `tf.GradientTape`?
