# ---
# jupyter:
#   minitape:
#     lesson: 03-none-gradients
# ---

# %% [markdown] key="title" lang="en"
# # Lesson 3 · Non-scalar targets, control flow, and None
#
# So far every target was a single number and every gradient came back. Real code is messier:
# losses come in vectors, models branch with `if` and loop with `for`, and sooner or later a
# gradient comes back as `None`. This lesson is about all three.
#
# In this lesson you will learn:
#
# - what the tape computes when the target is several tensors, or a tensor that is not a scalar;
# - how Python control flow (`if`, `for`) is recorded, and what the branch not taken gives;
# - every common way to get a `None` gradient, how to recognise each one and how to fix it;
# - what happens with operations that have no gradient, and how to get zeros instead of `None`.

# %% [markdown] key="title" lang="es" src="134f514b"
# # Lección 3 · Objetivos no escalares, flujo de control y None
#
# Hasta ahora cada objetivo era un solo número y todos los gradientes llegaban. El código real
# es más desordenado: las pérdidas vienen en vectores, los modelos se ramifican con `if` y
# repiten con `for`, y tarde o temprano un gradiente llega como `None`. Esta lección trata de
# las tres cosas.
#
# En esta lección aprenderás:
#
# - qué calcula la cinta cuando el objetivo son varios tensores, o un tensor que no es escalar;
# - cómo se graba el flujo de control de Python (`if`, `for`) y qué recibe la rama que no se
#   ejecutó;
# - todas las formas habituales de obtener un gradiente `None`, cómo reconocer cada una y cómo
#   arreglarla;
# - qué pasa con las operaciones que no tienen gradiente y cómo obtener ceros en lugar de
#   `None`.

# %% [markdown] key="title" lang="pt" src="134f514b"
# # Lição 3 · Alvos não escalares, fluxo de controle e None
#
# Até aqui cada alvo era um único número e todos os gradientes chegavam. O código de verdade é
# mais bagunçado: as perdas vêm em vetores, os modelos se ramificam com `if` e repetem com
# `for`, e mais cedo ou mais tarde um gradiente chega como `None`. Esta lição trata dessas três
# coisas.
#
# Nesta lição você vai aprender:
#
# - o que a fita calcula quando o alvo são vários tensores, ou um tensor que não é escalar;
# - como o fluxo de controle do Python (`if`, `for`) é gravado e o que recebe o ramo que não foi
#   executado;
# - todas as maneiras comuns de obter um gradiente `None`, como reconhecer cada uma e como
#   corrigi-la;
# - o que acontece com operações que não têm gradiente e como obter zeros em vez de `None`.

# %% [markdown] key="title" lang="ru" src="134f514b"
# # Урок 3 · Нескалярные цели, поток управления и None
#
# До сих пор каждая цель была одним числом, и все градиенты находились. В настоящем коде всё
# сложнее: потери бывают векторами, модели ветвятся через `if` и повторяют шаги в `for`, и рано
# или поздно градиент оказывается равен `None`. Этот урок — обо всём этом.
#
# В этом уроке вы узнаете:
#
# - что вычисляет лента, когда цель — несколько тензоров или тензор, не являющийся скаляром;
# - как записываются управляющие конструкции Python (`if`, `for`) и какой градиент получают
#   переменные невыполненной ветви;
# - все типичные способы получить градиент `None`, как распознать каждый из них и как его
#   исправить;
# - что происходит с операциями, у которых нет градиента, и как получить нули вместо `None`.

# %% key="setup-code"
import html
import inspect
import warnings

import ipywidgets as widgets
import matplotlib.pyplot as plt
import numpy as np

import minitape as tf
from minitape.debugging import why_none
from lessons.figures import describe
from lessons.i18n import current_language, t

lang = current_language()

# %% [markdown] key="one-number" lang="en"
# ## A gradient is about one number
#
# A gradient answers the question "how does *this number* change when the sources move?". With
# two targets, a persistent tape can answer for each one separately. At $x = 2$,
# $\frac{d}{dx} x^2 = 2x = 4$ and $\frac{d}{dx} \frac{1}{x} = -\frac{1}{x^2} = -0.25$:

# %% [markdown] key="one-number" lang="es" src="d2fd1e71"
# ## Un gradiente habla de un solo número
#
# Un gradiente responde a la pregunta «¿cómo cambia *este número* cuando se mueven las
# fuentes?». Con dos objetivos, una cinta persistente puede responder para cada uno por
# separado. En $x = 2$, $\frac{d}{dx} x^2 = 2x = 4$ y
# $\frac{d}{dx} \frac{1}{x} = -\frac{1}{x^2} = -0{,}25$:

# %% [markdown] key="one-number" lang="pt" src="d2fd1e71"
# ## Um gradiente fala de um único número
#
# Um gradiente responde à pergunta “como *este número* muda quando as fontes se movem?”. Com
# dois alvos, uma fita persistente pode responder para cada um separadamente. Em $x = 2$,
# $\frac{d}{dx} x^2 = 2x = 4$ e $\frac{d}{dx} \frac{1}{x} = -\frac{1}{x^2} = -0{,}25$:

# %% [markdown] key="one-number" lang="ru" src="d2fd1e71"
# ## Градиент говорит об одном числе
#
# Градиент отвечает на вопрос «как меняется *это число*, когда сдвигаются источники?». Если
# целей две, персистентная лента может ответить для каждой по отдельности. При $x = 2$ имеем
# $\frac{d}{dx} x^2 = 2x = 4$ и $\frac{d}{dx} \frac{1}{x} = -\frac{1}{x^2} = -0{,}25$:

# %% key="one-number-code"
x = tf.Variable(2.0)

with tf.GradientTape(persistent=True) as tape:
    y0 = x**2
    y1 = 1 / x

print(tape.gradient(y0, x).numpy())
print(tape.gradient(y1, x).numpy())
del tape

# %% [markdown] key="several-targets" lang="en"
# ## Several targets are added up
#
# Pass several targets at once (a list or a dictionary) and you get, for each source, the
# gradient of their **sum**, which is the same as the sum of their gradients: here
# $4 + (-0.25) = 3.75$.

# %% [markdown] key="several-targets" lang="es" src="f36b5423"
# ## Varios objetivos se suman
#
# Si pasas varios objetivos a la vez (una lista o un diccionario), obtienes, para cada fuente,
# el gradiente de su **suma**, que es lo mismo que la suma de sus gradientes: aquí
# $4 + (-0{,}25) = 3{,}75$.

# %% [markdown] key="several-targets" lang="pt" src="f36b5423"
# ## Vários alvos são somados
#
# Se você passar vários alvos de uma vez (uma lista ou um dicionário), recebe, para cada
# fonte, o gradiente da **soma** deles, que é o mesmo que a soma dos gradientes: aqui
# $4 + (-0{,}25) = 3{,}75$.

# %% [markdown] key="several-targets" lang="ru" src="f36b5423"
# ## Несколько целей складываются
#
# Если передать сразу несколько целей (списком или словарём), то для каждого источника
# получится градиент их **суммы** — или, что то же самое, сумма их градиентов: здесь
# $4 + (-0{,}25) = 3{,}75$.

# %% key="several-targets-code"
with tf.GradientTape() as tape:
    y0 = x**2
    y1 = 1 / x

print(tape.gradient({"y0": y0, "y1": y1}, x).numpy())

# %% [markdown] key="non-scalar" lang="en"
# ## A non-scalar target is added up too
#
# The same rule holds for one target with several elements: the tape differentiates the sum of
# its elements. For $y = x \cdot [3, 4] = [3x, 4x]$, the gradient is $3 + 4 = 7$:

# %% [markdown] key="non-scalar" lang="es" src="fc979254"
# ## Un objetivo no escalar también se suma
#
# La misma regla vale para un solo objetivo con varios elementos: la cinta deriva la suma de
# sus elementos. Para $y = x \cdot [3, 4] = [3x, 4x]$, el gradiente es $3 + 4 = 7$:

# %% [markdown] key="non-scalar" lang="pt" src="fc979254"
# ## Um alvo não escalar também é somado
#
# A mesma regra vale para um único alvo com vários elementos: a fita deriva a soma dos seus
# elementos. Para $y = x \cdot [3, 4] = [3x, 4x]$, o gradiente é $3 + 4 = 7$:

# %% [markdown] key="non-scalar" lang="ru" src="fc979254"
# ## Нескалярная цель тоже суммируется
#
# То же правило действует для одной цели из нескольких элементов: лента дифференцирует сумму
# её элементов. Для $y = x \cdot [3, 4] = [3x, 4x]$ градиент равен $3 + 4 = 7$:

# %% key="non-scalar-code"
with tf.GradientTape() as tape:
    y = x * [3.0, 4.0]

print(tape.gradient(y, x).numpy())

# %% [markdown] key="per-example" lang="en"
# This is handy: the gradient of a vector of per-example losses is the gradient of their
# **sum**, with no explicit `reduce_sum`. Careful, though: a training loss is usually a *mean*
# over the batch (`tf.reduce_mean`, and so are Keras's losses), and for a batch of $N$ examples the
# gradient of the sum is $N$ times the gradient of the mean. <!-- claim: l03.losses-are-means --> Hand the tape the vector where you
# meant the mean and every step is $N$ times too large, as if the learning rate had been
# multiplied by the batch size, and it changes whenever the batch size does. Here $N = 3$:

# %% [markdown] key="per-example" lang="es" src="1eb636a1"
# Esto resulta práctico: el gradiente de un vector con una pérdida por cada ejemplo es el
# gradiente de su **suma**, sin escribir `reduce_sum`. Pero cuidado: una pérdida de entrenamiento
# suele ser una *media* sobre el lote (`tf.reduce_mean`, como las pérdidas de Keras), y para un
# lote de $N$ ejemplos el gradiente de la suma es $N$ veces el gradiente de la media. <!-- claim: l03.losses-are-means --> Si le das a
# la cinta el vector cuando querías la media, cada paso es $N$ veces demasiado grande, como si la
# tasa de aprendizaje se hubiera multiplicado por el tamaño del lote, y cambia cada vez que cambia
# ese tamaño. Aquí $N = 3$:

# %% [markdown] key="per-example" lang="pt" src="1eb636a1"
# Isso é prático: o gradiente de um vetor com uma perda para cada exemplo é o gradiente da
# **soma** delas, sem precisar escrever `reduce_sum`. Mas cuidado: uma perda de treinamento
# costuma ser uma *média* sobre o lote (`tf.reduce_mean`, como as perdas do Keras), e para um lote
# de $N$ exemplos o gradiente da soma é $N$ vezes o gradiente da média. <!-- claim: l03.losses-are-means --> Entregue à fita o vetor
# quando você queria a média e cada passo fica $N$ vezes grande demais, como se a taxa de
# aprendizado tivesse sido multiplicada pelo tamanho do lote, e ele muda sempre que esse tamanho
# muda. Aqui $N = 3$:

# %% [markdown] key="per-example" lang="ru" src="1eb636a1"
# Это удобно: градиент вектора потерь по отдельным примерам совпадает с градиентом их
# **суммы**, и `reduce_sum` писать не нужно. Но осторожно: при обучении функция потерь обычно —
# *среднее* по батчу (`tf.reduce_mean`, так же устроены функции потерь Keras), а для батча из $N$
# примеров градиент суммы в $N$ раз больше градиента среднего. <!-- claim: l03.losses-are-means --> Отдайте ленте вектор там, где
# имелось в виду среднее, — и каждый шаг станет в $N$ раз больше, словно скорость обучения
# умножили на размер батча, да ещё и будет меняться вместе с ним. Здесь $N = 3$:

# %% key="per-example-code"
w = tf.Variable([0.5, -1.0])
inputs = tf.constant([[1.0, 2.0], [3.0, -1.0], [0.0, 1.0]])
labels = tf.constant([1.0, 0.0, 2.0])

with tf.GradientTape(persistent=True) as tape:
    per_example = (tf.reduce_sum(inputs * w, axis=1) - labels) ** 2
    total = tf.reduce_sum(per_example)
    mean = tf.reduce_mean(per_example)

print("per_example:", tape.gradient(per_example, w).numpy())
print("total:      ", tape.gradient(total, w).numpy())
print("mean:       ", tape.gradient(mean, w).numpy())
print("3 * mean:   ", 3 * tape.gradient(mean, w).numpy())
del tape

# %% [markdown] key="per-example-mask" lang="en"
# The same count decides a mean when some examples must not count: padding in a batch of
# sequences of different lengths, a missing label. A mask $m$ holds 1 for an example that counts
# and 0 for one that does not, and the mean over the examples that count divides by their number,
# $\frac{\sum_i m_i \ell_i}{\sum_i m_i}$. `tf.reduce_mean(mask * per_example)` divides by the whole
# batch instead, so its gradient shrinks as more of the batch is padding. Exercise 6 asks for the
# right one.

# %% [markdown] key="per-example-mask" lang="es" src="753391af"
# La misma cuenta decide una media cuando algunos ejemplos no deben contar: el relleno de un
# lote de secuencias de longitudes distintas, una etiqueta que falta. Una máscara $m$ vale 1 para un
# ejemplo que cuenta y 0 para uno que no, y la media sobre los ejemplos que cuentan divide entre su
# número, $\frac{\sum_i m_i \ell_i}{\sum_i m_i}$. `tf.reduce_mean(mask * per_example)` divide, en
# cambio, entre todo el lote, así que su gradiente se encoge cuanto más relleno hay en el lote. El
# ejercicio 6 pide la correcta.

# %% [markdown] key="per-example-mask" lang="pt" src="753391af"
# A mesma contagem decide uma média quando alguns exemplos não devem contar: o preenchimento
# de um lote de sequências de comprimentos diferentes, um rótulo que falta. Uma máscara $m$ vale 1
# para um exemplo que conta e 0 para um que não conta, e a média sobre os exemplos que contam
# divide pelo número deles, $\frac{\sum_i m_i \ell_i}{\sum_i m_i}$. Já
# `tf.reduce_mean(mask * per_example)` divide pelo lote inteiro, então o gradiente encolhe quanto
# mais preenchimento o lote tem. O exercício 6 pede a média certa.

# %% [markdown] key="per-example-mask" lang="ru" src="753391af"
# То же число решает дело, когда некоторые примеры не должны учитываться: заполнение
# (*padding*) в батче последовательностей разной длины, отсутствующая метка. Маска $m$ равна 1 для
# учитываемого примера и 0 для остальных, а среднее по учитываемым примерам делится на их
# количество: $\frac{\sum_i m_i \ell_i}{\sum_i m_i}$. `tf.reduce_mean(mask * per_example)` делит на
# размер всего батча, поэтому её градиент тем меньше, чем больше в батче заполнения. В упражнении 6
# нужно посчитать правильное среднее.

# %% [markdown] key="elementwise" lang="en"
# ## One backward pass, every derivative
#
# When each output element depends only on *its own* input element (an element-wise function),
# the gradient of the sum holds, at each position, the derivative of that element. So one
# backward pass gives the derivative of the sigmoid at 201 points:

# %% [markdown] key="elementwise" lang="es" src="e04c93b8"
# ## Una pasada hacia atrás, todas las derivadas
#
# Cuando cada elemento de la salida depende solo de *su propio* elemento de entrada (una
# función elemento a elemento), el gradiente de la suma contiene, en cada posición, la derivada
# de ese elemento. Así, una sola pasada hacia atrás da la derivada de la sigmoide en 201
# puntos:

# %% [markdown] key="elementwise" lang="pt" src="e04c93b8"
# ## Uma passagem para trás, todas as derivadas
#
# Quando cada elemento da saída depende só do *seu próprio* elemento de entrada (uma função
# elemento a elemento), o gradiente da soma contém, em cada posição, a derivada daquele
# elemento. Assim, uma única passagem para trás dá a derivada da sigmoide em 201 pontos:

# %% [markdown] key="elementwise" lang="ru" src="e04c93b8"
# ## Один обратный проход — все производные
#
# Если каждый элемент выхода зависит только от *своего* элемента входа (поэлементная функция),
# то градиент суммы содержит в каждой позиции производную этого элемента. Поэтому один
# обратный проход даёт производную сигмоиды сразу в 201 точке:

# %% key="elementwise-code"
x = tf.linspace(-10.0, 10.0, 201)

with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.nn.sigmoid(x)

dy_dx = tape.gradient(y, x)

plt.figure(figsize=(6.4, 3.6))
plt.plot(x.numpy(), y.numpy(), label="y = σ(x)")
plt.plot(x.numpy(), dy_dx.numpy(), label="dy/dx")
plt.xlabel(t("plot.x"))
plt.title(t("l03.sigmoid.title"), fontsize=10)
plt.legend()
describe(t("l03.sigmoid.alt"))
plt.show()

# %% [markdown] key="not-elementwise" lang="en"
# This trick needs an element-wise function. The outputs of a softmax always add up to 1, so
# the gradient of their sum is zero everywhere: it says nothing about each output. For one
# gradient per output element you need a *Jacobian* (lesson 5).

# %% [markdown] key="not-elementwise" lang="es" src="ef60f1ae"
# Este truco exige una función elemento a elemento. Las salidas de una softmax siempre suman 1,
# así que el gradiente de su suma es cero en todas partes: no dice nada de cada salida. Para
# tener un gradiente por cada elemento de la salida hace falta un *jacobiano* (lección 5).

# %% [markdown] key="not-elementwise" lang="pt" src="ef60f1ae"
# Esse truque exige uma função elemento a elemento. As saídas de uma softmax sempre somam 1,
# então o gradiente da soma delas é zero em toda parte: não diz nada sobre cada saída. Para ter
# um gradiente por elemento da saída, é preciso uma *jacobiana* (lição 5).

# %% [markdown] key="not-elementwise" lang="ru" src="ef60f1ae"
# Этот приём работает только для поэлементных функций. Выходы softmax в сумме всегда дают 1,
# поэтому градиент их суммы везде равен нулю и ничего не говорит о каждом выходе. Чтобы
# получить градиент для каждого элемента выхода, нужен *якобиан* (урок 5).

# %% key="not-elementwise-code"
logits = tf.constant([1.0, 2.0, 3.0])

with tf.GradientTape() as tape:
    tape.watch(logits)
    probabilities = tf.nn.softmax(logits)

print(probabilities.numpy(), probabilities.numpy().sum())
print(tape.gradient(probabilities, logits).numpy())

# %% [markdown] key="control-flow" lang="en"
# ## Control flow
#
# A tape records operations as they run, so Python's `if` and `for` need nothing special: the
# tape records the operations of the branch that actually ran. Here $x = 1 > 0$, so
# `result = v0` and the tape never sees `v1`:

# %% [markdown] key="control-flow" lang="es" src="138b0974"
# ## Flujo de control
#
# Una cinta graba las operaciones a medida que se ejecutan, así que los `if` y `for` de Python
# no necesitan nada especial: la cinta graba las operaciones de la rama que realmente se
# ejecutó. Aquí $x = 1 > 0$, de modo que `result = v0` y la cinta nunca ve `v1`:

# %% [markdown] key="control-flow" lang="pt" src="138b0974"
# ## Fluxo de controle
#
# Uma fita grava as operações à medida que elas são executadas; por isso, os `if` e `for` do
# Python não precisam de nada especial: a fita grava as operações do ramo que realmente rodou.
# Aqui $x = 1 > 0$, então `result = v0` e a fita nunca vê `v1`:

# %% [markdown] key="control-flow" lang="ru" src="138b0974"
# ## Поток управления
#
# Лента записывает операции по мере их выполнения, поэтому `if` и `for` в Python не требуют
# ничего особенного: лента записывает операции той ветви, которая действительно выполнилась.
# Здесь $x = 1 > 0$, значит, `result = v0`, и лента так и не увидит `v1`:

# %% key="control-flow-code"
x = tf.constant(1.0)
v0 = tf.Variable(2.0)
v1 = tf.Variable(2.0)

with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    if x > 0.0:
        result = v0
    else:
        result = v1**2

dv0, dv1 = tape.gradient(result, [v0, v1])
print(dv0)
print(dv1)

# %% [markdown] key="control-flow-x" lang="en"
# The condition itself is not differentiable: `x > 0.0` is a yes-or-no answer, so nothing flows
# back from `result` to `x`. Its gradient is `None` whichever branch runs, which also means that
# a gradient-based optimizer cannot "see" a threshold.

# %% [markdown] key="control-flow-x" lang="es" src="dc014b99"
# La condición en sí no es diferenciable: `x > 0.0` es una respuesta de sí o no, así que nada fluye
# de vuelta desde `result` hasta `x`. Su gradiente es `None` sea cual sea la rama que se
# ejecute, lo que también significa que un optimizador basado en gradientes no puede «ver» un
# umbral.

# %% [markdown] key="control-flow-x" lang="pt" src="dc014b99"
# A condição em si não é diferenciável: `x > 0.0` é uma resposta de sim ou não, então nada volta de
# `result` até `x`. O gradiente de `x` é `None` qualquer que seja o ramo executado, o que
# também significa que um otimizador baseado em gradientes não consegue “enxergar” um limiar.

# %% [markdown] key="control-flow-x" lang="ru" src="dc014b99"
# Само условие недифференцируемо: `x > 0.0` — это ответ «да или нет», поэтому от `result` к
# `x` ничего не течёт. Градиент по `x` равен `None`, какая бы ветвь ни выполнилась; это значит
# ещё и то, что оптимизатор на основе градиентов не «видит» порогов.

# %% key="control-flow-x-code"
print(tape.gradient(result, x))
del tape

# %% [markdown] key="loop" lang="en"
# Loops work the same way: the tape records every pass through the loop that runs. The function
# below multiplies by $x$ only when $1 < i < 5$, so with `n = 4` it computes $x^2$ and with
# `n >= 5` it computes $x^3$. At $x = 2$ the derivatives are $2x = 4$ and $3x^2 = 12$:

# %% [markdown] key="loop" lang="es" src="58591b93"
# Los bucles funcionan igual: la cinta graba cada vuelta del bucle que se ejecuta. La función
# de abajo multiplica por $x$ solo cuando $1 < i < 5$, así que con `n = 4` calcula $x^2$ y con
# `n >= 5` calcula $x^3$. En $x = 2$ las derivadas son $2x = 4$ y $3x^2 = 12$:

# %% [markdown] key="loop" lang="pt" src="58591b93"
# Os laços funcionam do mesmo jeito: a fita grava cada volta do laço que é executada. A função
# abaixo multiplica por $x$ só quando $1 < i < 5$; assim, com `n = 4` ela calcula $x^2$ e com
# `n >= 5` calcula $x^3$. Em $x = 2$ as derivadas são $2x = 4$ e $3x^2 = 12$:

# %% [markdown] key="loop" lang="ru" src="58591b93"
# С циклами то же самое: лента записывает каждую выполненную итерацию. Функция ниже умножает
# на $x$ только при $1 < i < 5$, так что при `n = 4` она вычисляет $x^2$, а при `n >= 5` —
# $x^3$. При $x = 2$ производные равны $2x = 4$ и $3x^2 = 12$:

# %% key="loop-code"
def power_by_loop(x, n):
    output = tf.constant(1.0)
    for i in range(n):
        if 1 < i < 5:
            output = output * x
    return output


x = tf.constant(2.0)
for n in [4, 5, 6]:
    with tf.GradientTape() as tape:
        tape.watch(x)
        out = power_by_loop(x, n)
    print(f"n = {n}:  f(2) = {out.numpy()},  f'(2) = {tape.gradient(out, x).numpy()}")

# %% [markdown] key="none" lang="en"
# ## Getting a None gradient
#
# When the target is not connected to a source, `gradient` returns `None`. Here $z$ is computed
# from `y` alone, so it does not depend on `x`:

# %% [markdown] key="none" lang="es" src="4ccbe8de"
# ## Cuando el gradiente es None
#
# Cuando el objetivo no está conectado con una fuente, `gradient` devuelve `None`. Aquí $z$ se
# calcula solo a partir de `y`, así que no depende de `x`:

# %% [markdown] key="none" lang="pt" src="4ccbe8de"
# ## Quando o gradiente é None
#
# Quando o alvo não está conectado a uma fonte, `gradient` devolve `None`. Aqui $z$ é calculado
# só a partir de `y`, então não depende de `x`:

# %% [markdown] key="none" lang="ru" src="4ccbe8de"
# ## Когда градиент равен None
#
# Если цель не связана с источником, `gradient` возвращает `None`. Здесь $z$ вычисляется только
# из `y`, поэтому от `x` не зависит:

# %% key="none-code"
x = tf.Variable(2.0)
y = tf.Variable(3.0)

with tf.GradientTape() as tape:
    z = y * y

print(tape.gradient(z, x))

# %% [markdown] key="why-none" lang="en"
# That case is obvious; the ones below are less so. To investigate each of them we use
# `why_none(tape, target, source, lang=...)` from `minitape.debugging`: it inspects what the
# tape recorded and explains, in the notebook's language, why no gradient reached the source. <!-- claim: l03.why-none -->
# Its answer has a short `reason` code and a `message` for people. It works on any tape,
# persistent or not, before or after `gradient`:

# %% [markdown] key="why-none" lang="es" src="d7dd0a69"
# Ese caso es evidente; los de abajo, no tanto. Para investigar cada uno usamos
# `why_none(tape, target, source, lang=...)`, de `minitape.debugging`: examina lo que grabó la
# cinta y explica, en el idioma del cuaderno, por qué ningún gradiente llegó a la fuente. <!-- claim: l03.why-none --> Su
# respuesta tiene un código corto, `reason`, y un mensaje legible, `message`. Funciona
# con cualquier cinta, persistente o no, antes o después de `gradient`:

# %% [markdown] key="why-none" lang="pt" src="d7dd0a69"
# Esse caso é óbvio; os de baixo, nem tanto. Para investigar cada um deles usamos
# `why_none(tape, target, source, lang=...)`, de `minitape.debugging`: ela examina o que a fita
# gravou e explica, no idioma do notebook, por que nenhum gradiente chegou à fonte. <!-- claim: l03.why-none --> A resposta
# tem um código curto, `reason`, e uma mensagem legível, `message`. Ela funciona com
# qualquer fita, persistente ou não, antes ou depois de `gradient`:

# %% [markdown] key="why-none" lang="ru" src="d7dd0a69"
# Этот случай очевиден, следующие — не очень. Чтобы разобраться с каждым, воспользуемся
# функцией `why_none(tape, target, source, lang=...)` из `minitape.debugging`: она изучает, что
# записала лента, и объясняет на языке блокнота, почему градиент не дошёл до источника. <!-- claim: l03.why-none --> В её
# ответе есть короткий код причины `reason` и сообщение для человека `message`. Она работает с
# любой лентой, персистентной или нет, до или после вызова `gradient`:

# %% key="why-none-code" tf="course"
answer = why_none(tape, z, x, lang=lang)
print(answer.reason)
print(answer.message)

# %% [markdown] key="case-replaced" lang="en"
# ### 1. A Variable replaced by a Tensor
#
# A tape watches Variables, not Tensors, and `x + 1` is a Tensor. Rebinding the name with
# `x = x + 1`, instead of updating the Variable in place with `x.assign_add(1)`, is a classic
# bug in training loops: the first step works, the second gets `None`.

# %% [markdown] key="case-replaced" lang="es" src="dd2e51f3"
# ### 1. Una variable sustituida por un tensor
#
# Una cinta observa por su cuenta las variables entrenables, no los tensores, y `x + 1` es un
# tensor. Reasignar el nombre con `x = x + 1`, en lugar de actualizar la variable en su sitio
# con `x.assign_add(1)`, es un
# error clásico en los bucles de entrenamiento: el primer paso funciona y el segundo recibe
# `None`.

# %% [markdown] key="case-replaced" lang="pt" src="dd2e51f3"
# ### 1. Uma variável trocada por um tensor
#
# Uma fita observa sozinha as variáveis treináveis, não os tensores, e `x + 1` é um tensor.
# Reatribuir o nome com `x = x + 1`, em vez de atualizar a variável no lugar com
# `x.assign_add(1)`, é um erro
# clássico em laços de treinamento: o primeiro passo funciona e o segundo recebe `None`.

# %% [markdown] key="case-replaced" lang="ru" src="dd2e51f3"
# ### 1. Переменную заменили тензором
#
# Лента отслеживает переменные, а не тензоры, а `x + 1` — это тензор. Если переприсвоить имя
# через `x = x + 1` вместо того, чтобы обновить переменную на месте через `x.assign_add(1)`,
# получится классическая ошибка в циклах обучения: первый шаг работает, а второй получает
# `None`.

# %% key="case-replaced-code"
x = tf.Variable(2.0)

for step in range(2):
    with tf.GradientTape() as tape:
        y = x + 1

    grad = tape.gradient(y, x)
    print(t("l03.step.type", step=step, kind=type(x).__name__, grad=grad))
    if grad is None:
        break
    x = x + 1

# %% key="case-replaced-why" tf="course"
print(why_none(tape, y, x, lang=lang).message)

# %% [markdown] key="case-numpy" lang="en"
# ### 2. A detour through NumPy
#
# The tape records only `tf` operations. As soon as a value leaves for NumPy (`np.mean`,
# `.numpy()`), the path back to the sources is cut: the NumPy result comes back as a brand-new
# constant with no history. <!-- claim: l03.numpy-detour -->

# %% [markdown] key="case-numpy" lang="es" src="bfeae11f"
# ### 2. Un desvío por NumPy
#
# La cinta solo graba operaciones de `tf`. En cuanto un valor se va a NumPy (`np.mean`,
# `.numpy()`), el camino de vuelta hacia las fuentes queda cortado: el resultado de NumPy
# vuelve como una constante nueva, sin historial. <!-- claim: l03.numpy-detour -->

# %% [markdown] key="case-numpy" lang="pt" src="bfeae11f"
# ### 2. Um desvio pelo NumPy
#
# A fita grava apenas operações de `tf`. Assim que um valor sai para o NumPy (`np.mean`,
# `.numpy()`), o caminho de volta até as fontes é cortado: o resultado do NumPy volta como uma
# constante nova, sem histórico. <!-- claim: l03.numpy-detour -->

# %% [markdown] key="case-numpy" lang="ru" src="bfeae11f"
# ### 2. Обход через NumPy
#
# Лента записывает только операции `tf`. Стоит значению уйти в NumPy (`np.mean`,
# `.numpy()`), как путь назад к источникам обрывается: результат NumPy возвращается как совсем
# новая константа без истории. <!-- claim: l03.numpy-detour -->

# %% key="case-numpy-code"
x = tf.Variable([[1.0, 2.0], [3.0, 4.0]])

with tf.GradientTape() as tape:
    x2 = x**2
    y = np.mean(x2, axis=0)
    y = tf.reduce_mean(y, axis=0)

print(tape.gradient(y, x))

# %% key="case-numpy-why" tf="course"
print(why_none(tape, y, x, lang=lang).message)

# %% [markdown] key="case-int" lang="en"
# ### 3. An integer dtype
#
# Integers are not differentiable. A Variable created from `[[2, 2], [2, 2]]` holds integers
# (`int32`), because no number in it has a decimal point. The gradient is `None`, and
# nothing says so: neither minitape nor TensorFlow warns. <!-- claim: l03.int-silent --> (TensorFlow writes `The dtype of the
# target tensor must be floating (e.g. tf.float32)` only to its verbose log, which is off
# unless you turn it on.) <!-- claim: l03.int-silent --> Here `why_none` is how you find out:

# %% [markdown] key="case-int" lang="es" src="21d21501"
# ### 3. Un tipo de dato entero
#
# Los enteros no son diferenciables. Una variable creada a partir de `[[2, 2], [2, 2]]` contiene
# enteros (`int32`), porque ninguno de sus números lleva punto decimal. El gradiente es
# `None` y nada lo dice: ni minitape ni TensorFlow avisan. <!-- claim: l03.int-silent --> (TensorFlow escribe `The dtype of the
# target tensor must be floating (e.g. tf.float32)`, «el tipo del tensor objetivo debe ser de coma
# flotante», solo en su registro detallado, que está apagado salvo que lo actives.) <!-- claim: l03.int-silent -->
# Aquí, `why_none` es la forma de averiguarlo:

# %% [markdown] key="case-int" lang="pt" src="21d21501"
# ### 3. Um tipo de dado inteiro
#
# Inteiros não são diferenciáveis. Uma variável criada a partir de `[[2, 2], [2, 2]]` guarda
# inteiros (`int32`), porque nenhum dos seus números tem ponto decimal. O gradiente é `None`
# e nada avisa: nem o minitape nem o TensorFlow. <!-- claim: l03.int-silent --> (O TensorFlow escreve `The dtype of the target
# tensor must be floating (e.g. tf.float32)`, “o tipo do tensor alvo deve ser de ponto
# flutuante”, só no seu log detalhado, que fica desligado a menos que você o ligue.) <!-- claim: l03.int-silent -->
# Aqui, `why_none` é como você descobre:

# %% [markdown] key="case-int" lang="ru" src="21d21501"
# ### 3. Целочисленный тип данных
#
# Целые числа недифференцируемы. Переменная, созданная из `[[2, 2], [2, 2]]`, хранит целые
# числа (`int32`), потому что ни в одном из них нет десятичной точки. Градиент равен `None`,
# и ничто об этом не сообщает: ни minitape, ни TensorFlow не предупреждают. <!-- claim: l03.int-silent --> (TensorFlow пишет
# `The dtype of the target tensor must be floating (e.g. tf.float32)` — «тип целевого тензора
# должен быть вещественным» — только в подробный журнал, который выключен, пока вы его не
# включите.) <!-- claim: l03.int-silent --> Здесь узнать причину помогает `why_none`:

# %% key="case-int-code"
x = tf.Variable([[2, 2], [2, 2]])
print(x.dtype)

with tf.GradientTape() as tape:
    y = tf.reduce_sum(x)

print(tape.gradient(y, x))

# %% key="case-int-why" tf="course"
print(why_none(tape, y, x, lang=lang).message)

# %% [markdown] key="case-int-fix" lang="en"
# The fix is to create the Variable with a floating dtype: write `2.0`, or pass
# `dtype=tf.float32`. Mixing integers and floats is not converted for you (TensorFlow does not
# cast automatically either), so in practice this mistake usually shows up as a type error
# rather than a missing gradient: <!-- claim: l03.no-auto-cast -->

# %% [markdown] key="case-int-fix" lang="es" src="68d5b6e2"
# La solución es crear la variable con un tipo de coma flotante: escribir `2.0` o pasar
# `dtype=tf.float32`. Si mezclas enteros y números de coma flotante, nadie convierte los tipos
# por ti (TensorFlow tampoco lo hace), así que en la práctica este error suele aparecer como un
# error de tipos, más que como un gradiente que falta: <!-- claim: l03.no-auto-cast -->

# %% [markdown] key="case-int-fix" lang="pt" src="68d5b6e2"
# A solução é criar a variável com um tipo de ponto flutuante: escrever `2.0` ou passar
# `dtype=tf.float32`. Se você misturar inteiros com números de ponto flutuante, ninguém converte
# os tipos por você (o TensorFlow também não faz isso); por isso, na prática, esse engano
# costuma aparecer como um erro de tipo, e não como um gradiente que falta: <!-- claim: l03.no-auto-cast -->

# %% [markdown] key="case-int-fix" lang="ru" src="68d5b6e2"
# Исправление — создать переменную вещественного типа (с плавающей точкой): написать `2.0` или передать
# `dtype=tf.float32`. Смесь целых и вещественных чисел сама не преобразуется (TensorFlow тоже
# не приводит типы автоматически), поэтому на практике такая ошибка чаще проявляется как
# ошибка типов, а не как пропавший градиент: <!-- claim: l03.no-auto-cast -->

# %% key="case-int-fix-code"
try:
    x * 0.5
except TypeError as error:
    print(t("l03.gloss.int_mix"))
    print("TypeError:", error)

x = tf.Variable([[2, 2], [2, 2]], dtype=tf.float32)
with tf.GradientTape() as tape:
    y = tf.reduce_sum(x * 0.5)
print(tape.gradient(y, x).numpy())

# %% [markdown] key="case-stateful" lang="en"
# ### 4. A stateful operation
#
# A Tensor has a value but no state: it never changes. A Variable has a state, its current
# value, and reading it is where the tape starts. `x1.assign_add(x0)` changes that state; the
# tape then sees the *new value* of `x1`, not the history that produced it, so the path to
# `x0` is lost:

# %% [markdown] key="case-stateful" lang="es" src="6043c7a7"
# ### 4. Una operación con estado
#
# Un tensor tiene un valor pero no un estado: nunca cambia. Una variable sí tiene estado, su
# valor actual, y la cinta solo ve el valor leído, no cómo se obtuvo. `x1.assign_add(x0)` cambia
# ese estado; luego la cinta ve el *nuevo valor* de `x1`, no el historial que lo produjo, así que
# el camino hasta `x0` se pierde:

# %% [markdown] key="case-stateful" lang="pt" src="6043c7a7"
# ### 4. Uma operação com estado
#
# Um tensor tem um valor, mas não um estado: ele nunca muda. Uma variável tem estado, o seu
# valor atual, e a fita só vê o valor lido, não como ele foi obtido. `x1.assign_add(x0)` muda
# esse estado; depois a fita vê o *novo valor* de `x1`, e não o histórico que o produziu, então
# o caminho até `x0` se perde:

# %% [markdown] key="case-stateful" lang="ru" src="6043c7a7"
# ### 4. Операция с состоянием
#
# У тензора есть значение, но нет состояния: он никогда не меняется. У переменной состояние
# есть — её текущее значение, и лента видит только прочитанное значение, а не то, как оно
# получено. `x1.assign_add(x0)` меняет
# это состояние; после этого лента видит *новое значение* `x1`, а не историю, которая к нему
# привела, поэтому путь к `x0` теряется:

# %% key="case-stateful-code"
x0 = tf.Variable(3.0)
x1 = tf.Variable(0.0)

with tf.GradientTape() as tape:
    x1.assign_add(x0)
    y = x1**2

print(tape.gradient(y, x0))

# %% key="case-stateful-why" tf="course"
print(why_none(tape, y, x0, lang=lang).message)

# %% [markdown] key="case-frozen" lang="en"
# ### 5. A non-trainable Variable
#
# As lesson 2 showed, a tape never watches a Variable created with `trainable=False` on its own.
# If you do need its gradient, watch it with `tape.watch`:

# %% [markdown] key="case-frozen" lang="es" src="2b2db387"
# ### 5. Una variable no entrenable
#
# Como vimos en la lección 2, una cinta nunca observa por su cuenta una variable creada con
# `trainable=False`. Si de verdad necesitas su gradiente, obsérvala con `tape.watch`:

# %% [markdown] key="case-frozen" lang="pt" src="2b2db387"
# ### 5. Uma variável não treinável
#
# Como vimos na lição 2, uma fita nunca observa por conta própria uma variável criada com
# `trainable=False`. Se você precisar mesmo do gradiente dela, observe-a com `tape.watch`:

# %% [markdown] key="case-frozen" lang="ru" src="2b2db387"
# ### 5. Необучаемая переменная
#
# Как показал урок 2, переменную, созданную с `trainable=False`, лента сама никогда не
# отслеживает. Если её градиент действительно нужен, отследите её через `tape.watch`:

# %% key="case-frozen-code"
scale = tf.Variable(2.0, trainable=False)

with tf.GradientTape() as tape:
    y = scale**3

print(tape.gradient(y, scale))

# %% key="case-frozen-why" tf="course"
print(why_none(tape, y, scale, lang=lang).message)

# %% [markdown] key="case-unwatched" lang="en"
# ### 6. A Tensor that was never watched
#
# And the most frequent one: a plain Tensor used as a source without `tape.watch`:

# %% [markdown] key="case-unwatched" lang="es" src="21d0df20"
# ### 6. Un tensor que nunca se observó
#
# Y el más frecuente: un tensor corriente usado como fuente sin `tape.watch`:

# %% [markdown] key="case-unwatched" lang="pt" src="21d0df20"
# ### 6. Um tensor que nunca foi observado
#
# E o mais frequente: um tensor comum usado como fonte sem `tape.watch`:

# %% [markdown] key="case-unwatched" lang="ru" src="21d0df20"
# ### 6. Тензор, который не отслеживали
#
# И самый частый случай: обычный тензор используется как источник без `tape.watch`:

# %% key="case-unwatched-code"
c = tf.constant(3.0)

with tf.GradientTape() as tape:
    y = c**2

print(tape.gradient(y, c))

# %% key="case-unwatched-why" tf="course"
print(why_none(tape, y, c, lang=lang).message)

# %% [markdown] key="no-gradient" lang="en"
# ## Operations with no registered gradient
#
# Some operations are declared *not differentiable* (comparisons, rounding): they simply give
# `None`. Others could have a gradient, but nobody wrote it: they have *no registered
# gradient*. Differentiating through one of those is an error, not a silent `None`, so you
# know something went wrong. `tf.image.adjust_contrast` is one of them:

# %% [markdown] key="no-gradient" lang="es" src="bfc5fe9f"
# ## Operaciones sin gradiente registrado
#
# Algunas operaciones están declaradas *no diferenciables* (las comparaciones, el redondeo):
# simplemente dan `None`. Otras podrían tener gradiente, pero nadie lo escribió: *no tienen
# gradiente registrado*. Derivar a través de una de ellas es un error, no un `None`
# silencioso, así que te enteras de que algo salió mal. `tf.image.adjust_contrast` es una de
# ellas:

# %% [markdown] key="no-gradient" lang="pt" src="bfc5fe9f"
# ## Operações sem gradiente registrado
#
# Algumas operações são declaradas *não diferenciáveis* (comparações, arredondamento): elas
# simplesmente dão `None`. Outras poderiam ter gradiente, mas ninguém o escreveu: elas *não
# têm gradiente registrado*. Derivar através de uma delas é um erro, não um `None` silencioso,
# então você fica sabendo que algo deu errado. `tf.image.adjust_contrast` é uma delas:

# %% [markdown] key="no-gradient" lang="ru" src="bfc5fe9f"
# ## Операции без зарегистрированного градиента
#
# Некоторые операции объявлены *недифференцируемыми* (сравнения, округление): они просто дают
# `None`. У других градиент мог бы быть, но его никто не написал: у них *нет
# зарегистрированного градиента*. Дифференцирование через такую операцию — это ошибка, а не
# молчаливый `None`, так что вы узнаете, что что-то пошло не так. `tf.image.adjust_contrast` —
# как раз такая операция:

# %% key="no-gradient-code"
image = tf.Variable([[[0.5, 0.0, 0.0], [0.1, 0.9, 0.3]]])
factor = tf.Variable(2.0)

with tf.GradientTape() as tape:
    new_image = tf.image.adjust_contrast(image, factor)

try:
    tape.gradient(new_image, [image, factor])
except LookupError as error:
    print(t("l03.gloss.no_gradient"))
    print(f"{type(error).__name__}: {error}")

# %% [markdown] key="no-gradient-fix" lang="en"
# There are two ways out: register a gradient for the operation (lesson 4 shows custom
# gradients), or rewrite it with operations that have one. Adjusting the contrast scales each
# value's distance from its channel's mean by the factor: $(x - \bar{x}) \cdot \text{factor} + \bar{x}$, where $\bar{x}$ is
# the channel's mean over the image. Rewritten like that, it gives the same image and its
# gradients:

# %% [markdown] key="no-gradient-fix" lang="es" src="887ad8f4"
# Hay dos salidas: registrar un gradiente para la operación (la lección 4 muestra los
# gradientes personalizados) o reescribirla con operaciones que sí lo tengan. Ajustar el
# contraste escala la distancia de cada valor a la media de su canal: $(x - \bar{x}) \cdot \text{factor} + \bar{x}$, donde
# $\bar{x}$ es la media del canal en la imagen. Reescrita así, da la misma imagen y además sus
# gradientes:

# %% [markdown] key="no-gradient-fix" lang="pt" src="887ad8f4"
# Há duas saídas: registrar um gradiente para a operação (a lição 4 mostra gradientes
# personalizados) ou reescrevê-la com operações que tenham gradiente. Ajustar o contraste
# escala a distância de cada pixel à média do seu canal: $(x - \bar{x}) \cdot \text{factor} + \bar{x}$, em que
# $\bar{x}$ é a média do canal na imagem. Reescrita assim, ela dá a mesma imagem e também os
# gradientes:

# %% [markdown] key="no-gradient-fix" lang="ru" src="887ad8f4"
# Выхода два: зарегистрировать для операции градиент (собственные градиенты — тема урока 4)
# или переписать её через операции, у которых градиент есть. Регулировка контраста умножает на
# множитель расстояние от значения каждого пикселя до среднего по его каналу: $(x - \bar{x}) \cdot \text{factor} + \bar{x}$, где $\bar{x}$ —
# среднее канала по изображению. В таком виде она даёт то же изображение и вдобавок градиенты:

# %% key="no-gradient-fix-code"
def adjust_contrast(image, factor):
    mean = tf.reduce_mean(image, axis=[-3, -2], keepdims=True)
    return (image - mean) * factor + mean


with tf.GradientTape() as tape:
    new_image = adjust_contrast(image, factor)
    brightness = tf.reduce_sum(new_image**2)

print(np.allclose(new_image.numpy(), tf.image.adjust_contrast(image, factor).numpy()))
d_image, d_factor = tape.gradient(brightness, [image, factor])
print(d_image.numpy())
print(d_factor.numpy())

# %% [markdown] key="zeros" lang="en"
# ## Zeros instead of None
#
# Sometimes `None` is just in the way, for example when you add gradients together or pass them
# all to an optimizer. The argument `unconnected_gradients=tf.UnconnectedGradients.ZERO` makes
# `gradient` return zeros of the source's shape for every unconnected source:

# %% [markdown] key="zeros" lang="es" src="326f93b2"
# ## Ceros en lugar de None
#
# A veces `None` solo estorba, por ejemplo cuando sumas gradientes o se los pasas todos a un
# optimizador. El argumento `unconnected_gradients=tf.UnconnectedGradients.ZERO` hace que
# `gradient` devuelva ceros con la forma de la fuente para cada fuente no conectada:

# %% [markdown] key="zeros" lang="pt" src="326f93b2"
# ## Zeros em vez de None
#
# Às vezes o `None` só atrapalha, por exemplo quando você soma gradientes ou os passa todos a
# um otimizador. O argumento `unconnected_gradients=tf.UnconnectedGradients.ZERO` faz
# `gradient` devolver zeros com o formato da fonte para cada fonte não conectada:

# %% [markdown] key="zeros" lang="ru" src="326f93b2"
# ## Нули вместо None
#
# Иногда `None` только мешает — например, когда градиенты складывают или передают все сразу
# оптимизатору. Аргумент `unconnected_gradients=tf.UnconnectedGradients.ZERO` заставляет
# `gradient` возвращать для каждого несвязанного источника нули той же формы, что и источник:

# %% key="zeros-code"
x = tf.Variable([2.0, 2.0])
y = tf.Variable(3.0)

with tf.GradientTape() as tape:
    z = y**2

print(tape.gradient(z, x, unconnected_gradients=tf.UnconnectedGradients.ZERO))

# %% [markdown] key="detective" lang="en"
# ## Explore: the None detective
#
# Each function below sets up one of the cases of this lesson, broken or fixed, and returns
# the tape, the target `y` and the source `x`. `investigate` asks for the gradient, collects
# any warnings (none of these cases gives one, in minitape or in TensorFlow) <!-- claim: l03.cases-silent -->
# and asks `why_none` about it; when the gradient exists, `why_none` says so too
# (`reason = "has_gradient"`):

# %% [markdown] key="detective" lang="es" src="76838a06"
# ## Explora: el detective de los None
#
# Cada función de abajo prepara uno de los casos de esta lección, roto o arreglado, y devuelve
# la cinta, el objetivo `y` y la fuente `x`. `investigate` pide el gradiente, recoge los
# avisos, si los hay (ninguno de estos casos da uno, ni en minitape ni en TensorFlow), <!-- claim: l03.cases-silent -->
# y le pregunta a `why_none` qué pasó; cuando el gradiente existe,
# `why_none` también lo dice (`reason = "has_gradient"`):

# %% [markdown] key="detective" lang="pt" src="76838a06"
# ## Explore: o detetive dos None
#
# Cada função abaixo monta um dos casos desta lição, quebrado ou corrigido, e devolve a fita,
# o alvo `y` e a fonte `x`. `investigate` pede o gradiente, recolhe os avisos, se houver (nenhum destes casos dá
# um, nem no minitape nem no TensorFlow), <!-- claim: l03.cases-silent --> e pergunta a `why_none` o que aconteceu; quando o gradiente existe, `why_none` também diz isso
# (`reason = "has_gradient"`):

# %% [markdown] key="detective" lang="ru" src="76838a06"
# ## Исследуйте: детектив по делам о None
#
# Каждая функция ниже воспроизводит один из случаев этого урока — в сломанном или
# исправленном виде — и возвращает ленту, цель `y` и источник `x`. `investigate` запрашивает
# градиент, собирает предупреждения, если они есть (ни один из этих случаев их не даёт — ни в
# minitape, ни в TensorFlow), <!-- claim: l03.cases-silent --> и спрашивает у `why_none`, что произошло; если градиент
# есть, `why_none` тоже об этом скажет (`reason = "has_gradient"`):

# %% key="detective-code" tf="course"
def replaced_variable(fixed):
    x = tf.Variable(2.0)
    if fixed:
        x.assign_add(1.0)
    else:
        x = x + 1.0
    with tf.GradientTape() as tape:
        y = x * x
    return tape, y, x


def numpy_detour(fixed):
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        if fixed:
            y = tf.reduce_sum(x**2)
        else:
            y = tf.constant(np.sum(x.numpy() ** 2))
    return tape, y, x


def integer_dtype(fixed):
    x = tf.Variable([2.0, 3.0]) if fixed else tf.Variable([2, 3])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(x * x)
    return tape, y, x


def stateful_update(fixed):
    x = tf.Variable(3.0)
    total = tf.Variable(0.0)
    with tf.GradientTape() as tape:
        if fixed:
            y = (total + x) ** 2
        else:
            total.assign_add(x)
            y = total**2
    return tape, y, x


def frozen_variable(fixed):
    x = tf.Variable(2.0, trainable=False)
    with tf.GradientTape() as tape:
        if fixed:
            tape.watch(x)
        y = x**3
    return tape, y, x


def unwatched_tensor(fixed):
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        if fixed:
            tape.watch(x)
        y = x**2
    return tape, y, x


def unconnected_target(fixed):
    x = tf.Variable(2.0)
    w = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = w * w + (x if fixed else 0.0)
    return tape, y, x


CASES = {"replaced": replaced_variable, "numpy": numpy_detour, "integer": integer_dtype,
         "stateful": stateful_update, "frozen": frozen_variable, "unwatched": unwatched_tensor,
         "unconnected": unconnected_target}


def investigate(case, fixed):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tape, target, source = CASES[case](fixed)
        grad = tape.gradient(target, source)
        answer = why_none(tape, target, source, lang=lang, name="x", target_name="y")
    return grad, answer, [str(w.message) for w in caught]


for fixed in [False, True]:
    grad, answer, caught = investigate("stateful", fixed)
    print(t("l03.fixed", fixed=fixed, grad=grad, reason=answer.reason))

# %% [markdown] key="detective-widget" lang="en"
# Pick a case, read the code and the diagnosis, then tick the box to apply the fix. Which line
# of the code makes the difference each time?

# %% [markdown] key="detective-widget" lang="es" src="cb75b787"
# Elige un caso, lee el código y el diagnóstico, y después marca la casilla para aplicar la
# corrección. ¿Qué línea del código marca la diferencia en cada caso?

# %% [markdown] key="detective-widget" lang="pt" src="cb75b787"
# Escolha um caso, leia o código e o diagnóstico e depois marque a caixa para aplicar a
# correção. Qual linha do código faz a diferença em cada caso?

# %% [markdown] key="detective-widget" lang="ru" src="cb75b787"
# Выберите случай, прочитайте код и диагноз, а затем поставьте флажок, чтобы применить
# исправление. Какая строка кода каждый раз решает дело?

# %% key="detective-widget-code" tf="course"
case_menu = widgets.Dropdown(options=[(t(f"l03.case.{name}"), name) for name in CASES],
                             description=t("l03.detective.case"),
                             style={"description_width": "initial"},
                             layout=widgets.Layout(width="max-content"))
fix_box = widgets.Checkbox(value=False, description=t("l03.detective.fix"))
report = widgets.HTML()


def show_case(change=None):
    grad, answer, caught = investigate(case_menu.value, fix_box.value)
    code = html.escape(inspect.getsource(CASES[case_menu.value]))
    if grad is None:
        verdict = "<b style='color:#c00'>None</b>"
    else:
        verdict = f"<b style='color:#1a7f37'>{np.round(grad.numpy(), 4)}</b>"
    verdict += f"<br>why_none: {html.escape(answer.message)}"
    notes = "".join(f"<li><code>{html.escape(message)}</code></li>" for message in caught)
    report.value = (f"<pre>{code}</pre><p>{t('l03.detective.gradient')}: {verdict}</p>"
                    + (f"<p>{t('l03.detective.warnings')}:</p><ul>{notes}</ul>" if notes else ""))


case_menu.observe(show_case, names="value")
fix_box.observe(show_case, names="value")
show_case()
widgets.VBox([widgets.HBox([case_menu, fix_box]), report])

# %% [markdown] key="exercises" lang="en"
# ## Exercises
#
# Complete each function, run its cell, then run the `check(...)` cell below it. Hidden checks
# call your function again at random points when your work is graded (for exercise 5: on the
# other snippets). Your answers are compared as in lesson 1: by their value, whatever holds it,
# within float32's tolerance. Two of the exercises
# start from broken code: run it first and read what goes wrong.

# %% [markdown] key="exercises" lang="es" src="76c360c2"
# ## Ejercicios
#
# Completa cada función, ejecuta su celda y después la celda con `check(...)` que hay debajo.
# Al calificar, unas comprobaciones ocultas vuelven a llamar a tu función en puntos aleatorios
# (en el ejercicio 5: con los otros fragmentos). Tus respuestas se comparan como en la lección 1:
# por su valor, sea cual sea el contenedor, con la tolerancia de float32.
# Dos de los ejercicios parten de código roto: ejecútalo primero y lee qué falla.

# %% [markdown] key="exercises" lang="pt" src="76c360c2"
# ## Exercícios
#
# Complete cada função, execute a célula dela e depois a célula com `check(...)` logo abaixo.
# Na correção, verificações ocultas chamam a sua função de novo em pontos aleatórios (no
# exercício 5: com os outros trechos). As suas respostas são comparadas como na lição 1: pelo
# valor, seja qual for o recipiente, com a tolerância do float32. Dois dos
# exercícios partem de código quebrado: execute-o primeiro e leia o que dá errado.

# %% [markdown] key="exercises" lang="ru" src="76c360c2"
# ## Упражнения
#
# Допишите каждую функцию, выполните её ячейку, а затем ячейку с `check(...)` под ней. При
# оценивании скрытые проверки снова вызовут вашу функцию в случайных точках (в упражнении 5 — с
# остальными фрагментами). Ответы сравниваются так же, как в уроке 1: по значению, в чём бы оно
# ни было, с допуском float32. Два упражнения
# начинаются со сломанного кода: сначала запустите его и посмотрите, что идёт не так.

# %% [markdown] key="ex1" lang="en"
# ### Exercise 1 · Every derivative from one backward pass (2 points)
#
# Write `elementwise_derivative(x)`. `x` is a 1-D NumPy array of floats. <!-- claim: l03.ex1-input --> Return the derivative
# of the element-wise function
#
# $$f(x) = x \, \sigma(x)$$
#
# (where $\sigma$ is `tf.nn.sigmoid`) at every element of `x`, as a tensor of the same shape.
# Use a single `gradient` call whose target is the whole vector $f(x)$.

# %% [markdown] key="ex1" lang="es" src="255c85a8"
# ### Ejercicio 1 · Todas las derivadas con una sola pasada hacia atrás (2 puntos)
#
# Escribe `elementwise_derivative(x)`. `x` es un array de NumPy de una dimensión con números
# reales. <!-- claim: l03.ex1-input --> Devuelve la derivada de la función elemento a elemento
#
# $$f(x) = x \, \sigma(x)$$
#
# (donde $\sigma$ es `tf.nn.sigmoid`) en cada elemento de `x`, como un tensor de la misma
# forma. Usa una sola llamada a `gradient` cuyo objetivo sea el vector entero $f(x)$.

# %% [markdown] key="ex1" lang="pt" src="255c85a8"
# ### Exercício 1 · Todas as derivadas com uma única passagem para trás (2 pontos)
#
# Escreva `elementwise_derivative(x)`. `x` é um array do NumPy de uma dimensão com números
# reais. <!-- claim: l03.ex1-input --> Devolva a derivada da função elemento a elemento
#
# $$f(x) = x \, \sigma(x)$$
#
# (em que $\sigma$ é `tf.nn.sigmoid`) em cada elemento de `x`, como um tensor do mesmo formato.
# Use uma única chamada a `gradient` cujo alvo seja o vetor inteiro $f(x)$.

# %% [markdown] key="ex1" lang="ru" src="255c85a8"
# ### Упражнение 1 · Все производные за один обратный проход (2 балла)
#
# Напишите функцию `elementwise_derivative(x)`. `x` — одномерный массив NumPy из вещественных
# чисел. <!-- claim: l03.ex1-input --> Верните производную поэлементной функции
#
# $$f(x) = x \, \sigma(x)$$
#
# (где $\sigma$ — это `tf.nn.sigmoid`) в каждом элементе `x` в виде тензора той же формы.
# Используйте один вызов `gradient`, целью которого будет весь вектор $f(x)$.

# %% nbgrader="solution" grade_id="l03_ex1_solution"
def elementwise_derivative(x):
    ### BEGIN SOLUTION
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * tf.nn.sigmoid(x)
    return tape.gradient(y, x)
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l03_ex1" points=2
from grader import check
check("l03_ex1")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l03_ex1")
### END HIDDEN TESTS

# %% [markdown] key="ex2-broken" lang="en"
# ### Exercise 2 · A training loop that keeps its Variable (2 points)
#
# This gradient descent on $f(x) = (x - 2)^2$ should take `steps` steps with learning rate `lr` and return
# the gradient of every step. Run it: the first step works, the second gets `None`, and then
# the update itself crashes.

# %% [markdown] key="ex2-broken" lang="es" src="d085daaa"
# ### Ejercicio 2 · Un bucle de entrenamiento que no pierde su variable (2 puntos)
#
# Este descenso del gradiente sobre $f(x) = (x - 2)^2$ debería dar `steps` pasos con tasa de
# aprendizaje `lr` y devolver el gradiente de cada paso. Ejecútalo: el primer paso funciona, el segundo recibe
# `None` y después la propia actualización falla.

# %% [markdown] key="ex2-broken" lang="pt" src="d085daaa"
# ### Exercício 2 · Um laço de treinamento que não perde sua variável (2 pontos)
#
# Esta descida do gradiente em $f(x) = (x - 2)^2$ deveria dar `steps` passos com taxa de
# aprendizado `lr` e devolver o gradiente de cada passo. Execute: o primeiro passo funciona, o segundo recebe
# `None` e depois a própria atualização quebra.

# %% [markdown] key="ex2-broken" lang="ru" src="d085daaa"
# ### Упражнение 2 · Цикл обучения, в котором переменная остаётся переменной (2 балла)
#
# Этот градиентный спуск для $f(x) = (x - 2)^2$ должен сделать `steps` шагов со скоростью
# обучения `lr` и вернуть градиент на каждом шаге. Запустите его: первый шаг проходит, второй получает `None`,
# а затем падает и само обновление.

# %% key="ex2-broken-code"
def broken_descent_gradients(x0, lr, steps):
    x = tf.Variable(x0)
    grads = []
    for step in range(steps):
        with tf.GradientTape() as tape:
            f = (x - 2.0) ** 2
        g = tape.gradient(f, x)
        print(t("l03.step.is_a", step=step, kind=type(x).__name__, grad=g))
        grads.append(g)
        x = x - lr * g
    return tf.stack(grads)


try:
    broken_descent_gradients(5.0, 0.25, 3)
except TypeError as error:
    print(t("l03.gloss.none_times"))
    print("TypeError:", error)

# %% [markdown] key="ex2" lang="en"
# Write `descent_gradients(x0, lr, steps)`, the fixed version: `x0` is a Python float, `lr` a
# Python float and `steps` an integer. Start from `x = tf.Variable(x0)`, take `steps` steps of
# $x \leftarrow x - \text{lr} \cdot f'(x)$ and return `tf.stack` of the `steps` gradients (a
# tensor of shape `(steps,)`). From $x_0 = 5$ with `lr = 0.25`, the gradients are
# $6, 3, 1.5, \dots$

# %% [markdown] key="ex2" lang="es" src="9ed08e1b"
# Escribe `descent_gradients(x0, lr, steps)`, la versión arreglada: `x0` es un `float` de
# Python, `lr` otro `float` y `steps` un entero. Empieza con `x = tf.Variable(x0)`, da `steps`
# pasos de $x \leftarrow x - \text{lr} \cdot f'(x)$ y devuelve `tf.stack` de los `steps`
# gradientes (un tensor de forma `(steps,)`). Desde $x_0 = 5$ con `lr = 0.25`, los gradientes
# son $6; 3; 1{,}5; \dots$

# %% [markdown] key="ex2" lang="pt" src="9ed08e1b"
# Escreva `descent_gradients(x0, lr, steps)`, a versão corrigida: `x0` é um `float` do Python,
# `lr` outro `float` e `steps` um inteiro. Comece com `x = tf.Variable(x0)`, dê `steps` passos
# de $x \leftarrow x - \text{lr} \cdot f'(x)$ e devolva `tf.stack` dos `steps` gradientes (um
# tensor de formato `(steps,)`). A partir de $x_0 = 5$ com `lr = 0.25`, os gradientes são
# $6; 3; 1{,}5; \dots$

# %% [markdown] key="ex2" lang="ru" src="9ed08e1b"
# Напишите исправленную версию — функцию `descent_gradients(x0, lr, steps)`: `x0` и `lr` —
# числа `float` в Python, `steps` — целое число. Начните с `x = tf.Variable(x0)`, сделайте
# `steps` шагов $x \leftarrow x - \text{lr} \cdot f'(x)$ и верните `tf.stack` из `steps`
# градиентов (тензор формы `(steps,)`). Начиная с $x_0 = 5$ при `lr = 0.25`, получаем градиенты
# $6; 3; 1{,}5; \dots$

# %% nbgrader="solution" grade_id="l03_ex2_solution"
def descent_gradients(x0, lr, steps):
    ### BEGIN SOLUTION
    x = tf.Variable(x0)
    grads = []
    for step in range(steps):
        with tf.GradientTape() as tape:
            f = (x - 2.0) ** 2
        g = tape.gradient(f, x)
        grads.append(g)
        x.assign_sub(lr * g)
    return tf.stack(grads)
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l03_ex2" points=2
from grader import check
check("l03_ex2")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l03_ex2")
### END HIDDEN TESTS

# %% [markdown] key="ex3-broken" lang="en"
# ### Exercise 3 · No NumPy detour (2 points)
#
# This function should return the gradient of
#
# $$L = \sum_i \log(1 + r_i), \qquad r_i = \sqrt{\textstyle\sum_j w_{ij}^2},$$
#
# the sum over the rows of `w` of the log of one plus the row's length. It returns `None`
# instead:

# %% [markdown] key="ex3-broken" lang="es" src="1c5cf148"
# ### Ejercicio 3 · Sin desvíos por NumPy (2 puntos)
#
# Esta función debería devolver el gradiente de
#
# $$L = \sum_i \log(1 + r_i), \qquad r_i = \sqrt{\textstyle\sum_j w_{ij}^2},$$
#
# la suma, sobre las filas de `w`, del logaritmo de uno más la norma euclídea de la fila. En cambio,
# devuelve `None`:

# %% [markdown] key="ex3-broken" lang="pt" src="1c5cf148"
# ### Exercício 3 · Sem desvios pelo NumPy (2 pontos)
#
# Esta função deveria devolver o gradiente de
#
# $$L = \sum_i \log(1 + r_i), \qquad r_i = \sqrt{\textstyle\sum_j w_{ij}^2},$$
#
# a soma, sobre as linhas de `w`, do logaritmo de um mais a norma euclidiana da linha. Em vez
# disso, ela devolve `None`:

# %% [markdown] key="ex3-broken" lang="ru" src="1c5cf148"
# ### Упражнение 3 · Без обхода через NumPy (2 балла)
#
# Эта функция должна возвращать градиент
#
# $$L = \sum_i \log(1 + r_i), \qquad r_i = \sqrt{\textstyle\sum_j w_{ij}^2},$$
#
# где $r_i$ — евклидова норма $i$-й строки `w`: для каждой строки берётся логарифм суммы
# единицы и её нормы, и эти логарифмы складываются. Вместо этого функция возвращает `None`:

# %% key="ex3-broken-code"
def broken_row_norms_gradient(w):
    with tf.GradientTape() as tape:
        norms = np.sqrt(np.sum(w.numpy() ** 2, axis=1))
        loss = tf.reduce_sum(tf.math.log(1.0 + norms))
    return tape.gradient(loss, w)


print(broken_row_norms_gradient(tf.Variable([[3.0, 4.0], [1.0, -1.0]])))

# %% [markdown] key="ex3" lang="en"
# Write `row_norms_gradient(w)`, the fixed version: `w` is a `tf.Variable` of shape (n, m);
# return $\frac{\partial L}{\partial w}$, of shape (n, m), computed entirely with `tf`
# operations (`tf.sqrt`, `tf.reduce_sum`, `tf.math.log`).

# %% [markdown] key="ex3" lang="es" src="ac8c66ec"
# Escribe `row_norms_gradient(w)`, la versión arreglada: `w` es una `tf.Variable` de forma
# (n, m); devuelve $\frac{\partial L}{\partial w}$, de forma (n, m), calculado por completo con
# operaciones de `tf` (`tf.sqrt`, `tf.reduce_sum`, `tf.math.log`).

# %% [markdown] key="ex3" lang="pt" src="ac8c66ec"
# Escreva `row_norms_gradient(w)`, a versão corrigida: `w` é uma `tf.Variable` de formato
# (n, m); devolva $\frac{\partial L}{\partial w}$, de formato (n, m), calculado inteiramente
# com operações de `tf` (`tf.sqrt`, `tf.reduce_sum`, `tf.math.log`).

# %% [markdown] key="ex3" lang="ru" src="ac8c66ec"
# Напишите исправленную версию — функцию `row_norms_gradient(w)`: `w` — `tf.Variable` формы
# (n, m); верните $\frac{\partial L}{\partial w}$ формы (n, m), вычисленный целиком операциями
# `tf` (`tf.sqrt`, `tf.reduce_sum`, `tf.math.log`).

# %% nbgrader="solution" grade_id="l03_ex3_solution"
def row_norms_gradient(w):
    ### BEGIN SOLUTION
    with tf.GradientTape() as tape:
        norms = tf.sqrt(tf.reduce_sum(w**2, axis=1))
        loss = tf.reduce_sum(tf.math.log(1.0 + norms))
    return tape.gradient(loss, w)
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l03_ex3" points=2
from grader import check
check("l03_ex3")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l03_ex3")
### END HIDDEN TESTS

# %% [markdown] key="ex4" lang="en"
# ### Exercise 4 · Control flow, and zeros instead of None (3 points)
#
# Write `branch_gradients(params, x, deep)`. `params` is a dictionary `{"a": ..., "b": ...}`
# of two `tf.Variable`s of shape (n, m), `x` a tensor of shape (k, n) and `deep` a Python
# bool. With a Python `if`, compute
#
# $$y = \tanh(x a) \text{ if deep, otherwise } y = x b, \qquad L = \operatorname{mean}(y^2),$$
#
# and return the gradients of $L$ with respect to `params`, as a dictionary with the same
# keys. The parameter of the branch not taken must get zeros of its shape, not `None`.

# %% [markdown] key="ex4" lang="es" src="0ef53dea"
# ### Ejercicio 4 · Flujo de control, y ceros en lugar de None (3 puntos)
#
# Escribe `branch_gradients(params, x, deep)`. `params` es un diccionario
# `{"a": ..., "b": ...}` con dos `tf.Variable` de forma (n, m), `x` un tensor de forma (k, n)
# y `deep` un `bool` de Python. Con un `if` de Python, calcula
#
# $$y = \tanh(x a) \text{ si deep; si no, } y = x b, \qquad L = \operatorname{mean}(y^2),$$
#
# y devuelve los gradientes de $L$ respecto de `params`, en un diccionario con las mismas
# claves. El parámetro de la rama que no se ejecuta debe recibir ceros con su forma, no
# `None`.

# %% [markdown] key="ex4" lang="pt" src="0ef53dea"
# ### Exercício 4 · Fluxo de controle, e zeros em vez de None (3 pontos)
#
# Escreva `branch_gradients(params, x, deep)`. `params` é um dicionário `{"a": ..., "b": ...}`
# com duas `tf.Variable` de formato (n, m), `x` um tensor de formato (k, n) e `deep` um `bool`
# do Python. Com um `if` do Python, calcule
#
# $$y = \tanh(x a) \text{ se deep; senão, } y = x b, \qquad L = \operatorname{mean}(y^2),$$
#
# e devolva os gradientes de $L$ em relação a `params`, em um dicionário com as mesmas chaves.
# O parâmetro do ramo que não é executado deve receber zeros com o seu formato, e não `None`.

# %% [markdown] key="ex4" lang="ru" src="0ef53dea"
# ### Упражнение 4 · Поток управления и нули вместо None (3 балла)
#
# Напишите функцию `branch_gradients(params, x, deep)`. `params` — словарь
# `{"a": ..., "b": ...}` из двух `tf.Variable` формы (n, m), `x` — тензор формы (k, n),
# `deep` — логическое значение Python. С помощью `if` в Python вычислите
#
# $$y = \tanh(x a), \text{ если deep, иначе } y = x b, \qquad L = \operatorname{mean}(y^2),$$
#
# и верните градиенты $L$ по `params` в виде словаря с теми же ключами. Параметр
# невыполненной ветви должен получить нули своей формы, а не `None`.

# %% nbgrader="solution" grade_id="l03_ex4_solution"
def branch_gradients(params, x, deep):
    ### BEGIN SOLUTION
    with tf.GradientTape() as tape:
        if deep:
            y = tf.math.tanh(tf.matmul(x, params["a"]))
        else:
            y = tf.matmul(x, params["b"])
        loss = tf.reduce_mean(y**2)
    return tape.gradient(loss, params, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l03_ex4" points=3
from grader import check
check("l03_ex4")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l03_ex4")
### END HIDDEN TESTS

# %% [markdown] key="ex5" lang="en"
# ### Exercise 5 · Why is it None? (2 points)
#
# The next cell prints nine snippets you have not seen, `"A"` to `"I"`, as text. Each sets up a
# tape, a target `y` and a source `x`, and then asks for `tape.gradient(y, x)`. For each one,
# decide whether the gradient is a tensor or `None`, and if it is `None`, *why*. Write
# `none_cause(snippet)`: for a snippet's letter it returns the code of its cause:
#
# | code | cause |
# |---|---|
# | 0 | the gradient is a tensor (even a tensor of zeros) |
# | 1 | the source was never watched: a tensor made with `tf.constant` and no `tape.watch`, or a Variable made with `trainable=False` |
# | 2 | an integer dtype |
# | 3 | the source's name held a Variable and now holds a Tensor computed from it (`x = x + 1`) |
# | 4 | the values took a detour through NumPy |
# | 5 | a stateful `assign` cut the path |
# | 6 | the source was used only before the tape started: the target comes from a result computed from it outside the tape | <!-- claim: l03.snippets-one-code -->
#
# Reason first, from what this lesson showed: that is the skill the exercise trains. The
# visible check asks about A and B, the hidden checks about the other seven.

# %% [markdown] key="ex5" lang="es" src="3197be19"
# ### Ejercicio 5 · ¿Por qué es None? (2 puntos)
#
# La celda siguiente imprime, como texto, nueve fragmentos que no has visto, de `"A"` a `"I"`.
# Cada uno prepara una cinta, un objetivo `y` y una fuente `x`, y después pide
# `tape.gradient(y, x)`. Decide para cada uno si el gradiente es un tensor o `None` y, si es
# `None`, *por qué*. Escribe `none_cause(snippet)`: para la letra de un fragmento, devuelve el
# código de su causa:
#
# | código | causa |
# |---|---|
# | 0 | el gradiente es un tensor (aunque sea un tensor de ceros) |
# | 1 | la fuente nunca se observó: un tensor creado con `tf.constant` y sin `tape.watch`, o una variable creada con `trainable=False` |
# | 2 | un tipo de dato entero |
# | 3 | el nombre de la fuente tenía una variable y ahora tiene un tensor calculado a partir de ella (`x = x + 1`) |
# | 4 | los valores se desviaron por NumPy |
# | 5 | un `assign` con estado cortó el camino |
# | 6 | la fuente solo se usó antes de que la cinta empezara: el objetivo sale de un resultado calculado con ella fuera de la cinta | <!-- claim: l03.snippets-one-code -->
#
# Razona primero, con lo que mostró esta lección: esa es la habilidad que entrena el ejercicio.
# La comprobación visible pregunta por A y B; las ocultas, por los otros siete.

# %% [markdown] key="ex5" lang="pt" src="3197be19"
# ### Exercício 5 · Por que é None? (2 pontos)
#
# A próxima célula imprime, como texto, nove trechos que você ainda não viu, de `"A"` a `"I"`.
# Cada um monta uma fita, um alvo `y` e uma fonte `x` e depois pede `tape.gradient(y, x)`.
# Decida para cada um se o gradiente é um tensor ou `None` e, se for `None`, *por quê*.
# Escreva `none_cause(snippet)`: para a letra de um trecho, ela devolve o código da causa:
#
# | código | causa |
# |---|---|
# | 0 | o gradiente é um tensor (mesmo que seja um tensor de zeros) |
# | 1 | a fonte nunca foi observada: um tensor criado com `tf.constant` e sem `tape.watch`, ou uma variável criada com `trainable=False` |
# | 2 | um tipo de dado inteiro |
# | 3 | o nome da fonte guardava uma variável e agora guarda um tensor calculado a partir dela (`x = x + 1`) |
# | 4 | os valores fizeram um desvio pelo NumPy |
# | 5 | um `assign` com estado cortou o caminho |
# | 6 | a fonte só foi usada antes de a fita começar: o alvo vem de um resultado calculado com ela fora da fita | <!-- claim: l03.snippets-one-code -->
#
# Raciocine primeiro, com o que esta lição mostrou: é essa a habilidade que o exercício treina.
# A verificação visível pergunta sobre A e B; as ocultas, sobre os outros sete.

# %% [markdown] key="ex5" lang="ru" src="3197be19"
# ### Упражнение 5 · Почему None? (2 балла)
#
# Следующая ячейка выводит в виде текста девять фрагментов, которых вы ещё не видели, от `"A"`
# до `"I"`. Каждый готовит ленту, цель `y` и источник `x`, а затем запрашивает
# `tape.gradient(y, x)`. Решите для каждого, будет ли градиент тензором или `None`, и если
# `None`, то *почему*. Напишите функцию `none_cause(snippet)`: для буквы фрагмента она
# возвращает код причины:
#
# | код | причина |
# |---|---|
# | 0 | градиент — тензор (пусть даже из нулей) |
# | 1 | источник не отслеживался: тензор, созданный `tf.constant`, без `tape.watch`, или переменная, созданная с `trainable=False` |
# | 2 | целочисленный тип данных |
# | 3 | имя источника хранило переменную, а теперь хранит вычисленный из неё тензор (`x = x + 1`) |
# | 4 | значения ушли в обход через NumPy |
# | 5 | `assign` с состоянием оборвал путь |
# | 6 | источник использовался только до начала записи: цель получена из результата, вычисленного из него вне ленты | <!-- claim: l03.snippets-one-code -->
#
# Сначала рассуждайте, опираясь на этот урок: именно этот навык тренирует упражнение. Открытая
# проверка спрашивает про A и B, скрытые — про остальные семь.

# %% key="ex5-snippets"
SNIPPETS = {
    "A": """
x = tf.Variable([1.0, 2.0], trainable=False)
with tf.GradientTape() as tape:
    y = tf.reduce_sum(x * x)
""",
    "B": """
x = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y = x * 0.0 + 1.0
""",
    "C": """
x = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y = tf.constant(np.exp(x.numpy()))
""",
    "D": """
x = tf.Variable([1, 2, 3])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(x * x)
""",
    "E": """
x = tf.Variable(2.0)
x = x * 1.0
with tf.GradientTape() as tape:
    y = x**3
""",
    "F": """
x = tf.Variable(2.0)
h = tf.Variable(0.0)
with tf.GradientTape() as tape:
    h.assign(x * 3.0)
    y = h * h
""",
    "G": """
x = tf.Variable(2.0)
z = tf.sin(x)
with tf.GradientTape() as tape:
    y = z * z
""",
    "H": """
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.reduce_sum(tf.where(x > 1.5, x, 0.0))
""",
    "I": """
x = tf.constant(3.0)
with tf.GradientTape() as tape:
    y = tf.exp(x) * x
""",
}

for letter, code in SNIPPETS.items():
    print(f"--- {letter} ---{code}")

# %% nbgrader="solution" grade_id="l03_ex5_solution"
def none_cause(snippet):
    ### BEGIN SOLUTION
    causes = {"A": 1, "B": 0, "C": 4, "D": 2, "E": 3, "F": 5, "G": 6, "H": 0, "I": 1}
    return float(causes[snippet])
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l03_ex5" points=2
from grader import check
check("l03_ex5")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l03_ex5")
### END HIDDEN TESTS

# %% [markdown] key="ex6" lang="en"
# ### Exercise 6 · A mean over the examples that count (2 points)
#
# Write `masked_mean_gradient(w, x, y, mask)`. `w` is a `tf.Variable` of shape (n,), `x` a tensor
# of shape (k, n), `y` a tensor of shape (k,), and `mask` a tensor of shape (k,) that holds `1.0` for
# the examples that count and `0.0` for the padding. With the per-example losses
# $\ell_i = (x_i \cdot w - y_i)^2$ (as `(tf.reduce_sum(x * w, axis=1) - y) ** 2`), return the
# gradient with respect to `w` of the mean over the examples that count,
#
# $$L = \frac{\sum_i m_i\, \ell_i}{\sum_i m_i}.$$
#
# Think first: by what factor would your answer be off if you gave the tape the vector
# $m_i\, \ell_i$ itself, or its `tf.reduce_mean`?

# %% [markdown] key="ex6" lang="es" src="d819b463"
# ### Ejercicio 6 · Una media sobre los ejemplos que cuentan (2 puntos)
#
# Escribe `masked_mean_gradient(w, x, y, mask)`. `w` es una `tf.Variable` de forma (n,), `x` un
# tensor de forma (k, n), `y` un tensor de forma (k,) y `mask` un tensor de forma (k,) que vale `1.0`
# para los ejemplos que cuentan y `0.0` para el relleno. Con las pérdidas de cada ejemplo
# $\ell_i = (x_i \cdot w - y_i)^2$ (como `(tf.reduce_sum(x * w, axis=1) - y) ** 2`), devuelve el
# gradiente respecto de `w` de la media sobre los ejemplos que cuentan,
#
# $$L = \frac{\sum_i m_i\, \ell_i}{\sum_i m_i}.$$
#
# Piensa primero: ¿en qué factor se equivocaría tu respuesta si le dieras a la cinta el propio
# vector $m_i\, \ell_i$, o su `tf.reduce_mean`?

# %% [markdown] key="ex6" lang="pt" src="d819b463"
# ### Exercício 6 · Uma média sobre os exemplos que contam (2 pontos)
#
# Escreva `masked_mean_gradient(w, x, y, mask)`. `w` é uma `tf.Variable` de formato (n,), `x` um
# tensor de formato (k, n), `y` um tensor de formato (k,) e `mask` um tensor de formato (k,) que
# vale `1.0` para os exemplos que contam e `0.0` para o preenchimento. Com as perdas de cada exemplo
# $\ell_i = (x_i \cdot w - y_i)^2$ (como `(tf.reduce_sum(x * w, axis=1) - y) ** 2`), devolva o
# gradiente em relação a `w` da média sobre os exemplos que contam,
#
# $$L = \frac{\sum_i m_i\, \ell_i}{\sum_i m_i}.$$
#
# Pense primeiro: por que fator a sua resposta estaria errada se você desse à fita o próprio vetor
# $m_i\, \ell_i$, ou o `tf.reduce_mean` dele?

# %% [markdown] key="ex6" lang="ru" src="d819b463"
# ### Упражнение 6 · Среднее по учитываемым примерам (2 балла)
#
# Напишите функцию `masked_mean_gradient(w, x, y, mask)`. `w` — `tf.Variable` формы (n,), `x` —
# тензор формы (k, n), `y` — тензор формы (k,), а `mask` — тензор формы (k,), равный `1.0` для
# учитываемых примеров и `0.0` для заполнения. Для потерь отдельных примеров
# $\ell_i = (x_i \cdot w - y_i)^2$ (как `(tf.reduce_sum(x * w, axis=1) - y) ** 2`) верните градиент
# по `w` среднего по учитываемым примерам:
#
# $$L = \frac{\sum_i m_i\, \ell_i}{\sum_i m_i}.$$
#
# Сначала подумайте: во сколько раз ошибся бы ваш ответ, если бы вы отдали ленте сам вектор
# $m_i\, \ell_i$ или его `tf.reduce_mean`?

# %% nbgrader="solution" grade_id="l03_ex6_solution"
def masked_mean_gradient(w, x, y, mask):
    ### BEGIN SOLUTION
    with tf.GradientTape() as tape:
        losses = (tf.reduce_sum(x * w, axis=1) - y) ** 2
        loss = tf.reduce_sum(mask * losses) / tf.reduce_sum(mask)
    return tape.gradient(loss, w)
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l03_ex6" points=2
from grader import check
check("l03_ex6")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l03_ex6")
### END HIDDEN TESTS

# %% [markdown] key="summary" lang="en"
# ## Summary
#
# - Several targets, or a target with several elements, are summed: you get the gradient of the
#   sum. For an element-wise function, that gradient holds every element's own derivative.
# - A loss that is a mean needs a mean as the target: the vector of $N$ per-example losses gives
#   $N$ times its gradient. Divide by the number of examples that count.
# - Python `if` and `for` just run; the tape records the operations that ran. The branch not
#   taken and the condition itself get `None`.
# - A gradient is `None` when the tape found no path from the target to the source: the target
#   is unconnected, a Variable was replaced by a Tensor, the values took a detour through NumPy,
#   the dtype is an integer, a stateful `assign` cut the history, or the source was never
#   watched (a Tensor without `tape.watch`, a non-trainable Variable). <!-- claim: l03.none-causes -->
#   `minitape.debugging.why_none` tells you which. <!-- claim: l03.why-none -->
# - An operation with no registered gradient raises `LookupError`: rewrite it with
#   differentiable operations or give it a gradient.
# - `unconnected_gradients=tf.UnconnectedGradients.ZERO` returns zeros instead of `None`.
#
# Next lesson: controlling what the tape records (`stop_recording`, `reset`,
# `tf.stop_gradient`) and writing your own gradients with `tf.custom_gradient`, to give an
# operation a gradient it lacks, clip it, or keep it finite.

# %% [markdown] key="summary" lang="es" src="3eccbf4c"
# ## Resumen
#
# - Varios objetivos, o un objetivo con varios elementos, se suman: obtienes el gradiente de la
#   suma. En una función elemento a elemento, ese gradiente contiene la derivada de cada
#   elemento.
# - Una pérdida que es una media necesita una media como objetivo: el vector de las $N$ pérdidas
#   de cada ejemplo da $N$ veces su gradiente. Divide entre el número de ejemplos que cuentan.
# - Los `if` y `for` de Python simplemente se ejecutan; la cinta graba las operaciones que se
#   ejecutaron. La rama que no se tomó y la propia condición reciben `None`.
# - Un gradiente es `None` cuando la cinta no encontró ningún camino del objetivo a la fuente:
#   el objetivo no está conectado, una variable se sustituyó por un tensor, los valores se
#   desviaron por NumPy, el tipo de dato es entero, un `assign` con estado cortó el camino o
#   la fuente nunca se observó (un tensor sin `tape.watch`, una variable no entrenable). <!-- claim: l03.none-causes -->
#   `minitape.debugging.why_none` te dice cuál de ellos es. <!-- claim: l03.why-none -->
# - Una operación sin gradiente registrado lanza `LookupError`: reescríbela con operaciones
#   diferenciables o dale un gradiente.
# - `unconnected_gradients=tf.UnconnectedGradients.ZERO` devuelve ceros en lugar de `None`.
#
# En la próxima lección: controlar qué graba la cinta (`stop_recording`, `reset`,
# `tf.stop_gradient`) y escribir tus propios gradientes con `tf.custom_gradient`, para darle un
# gradiente a una operación que no lo tiene, recortarlo o mantenerlo finito.

# %% [markdown] key="summary" lang="pt" src="3eccbf4c"
# ## Resumo
#
# - Vários alvos, ou um alvo com vários elementos, são somados: você recebe o gradiente da
#   soma. Numa função elemento a elemento, esse gradiente contém a derivada de cada elemento.
# - Uma perda que é uma média precisa de uma média como alvo: o vetor das $N$ perdas de cada
#   exemplo dá $N$ vezes o gradiente dela. Divida pelo número de exemplos que contam.
# - Os `if` e `for` do Python simplesmente rodam; a fita grava as operações que foram
#   executadas. O ramo não executado e a própria condição recebem `None`.
# - Um gradiente é `None` quando a fita não encontrou nenhum caminho do alvo até a fonte: o
#   alvo não está conectado, uma variável foi trocada por um tensor, os valores fizeram um
#   desvio pelo NumPy, o tipo de dado é inteiro, um `assign` com estado cortou o caminho ou a
#   fonte nunca foi observada (um tensor sem `tape.watch`, uma variável não treinável). <!-- claim: l03.none-causes -->
#   `minitape.debugging.why_none` diz qual é o caso. <!-- claim: l03.why-none -->
# - Uma operação sem gradiente registrado lança `LookupError`: reescreva-a com operações
#   diferenciáveis ou dê a ela um gradiente.
# - `unconnected_gradients=tf.UnconnectedGradients.ZERO` devolve zeros em vez de `None`.
#
# Na próxima lição: controlar o que a fita grava (`stop_recording`, `reset`,
# `tf.stop_gradient`) e escrever os seus próprios gradientes com `tf.custom_gradient`, para dar
# um gradiente a uma operação que não tem, recortá-lo ou mantê-lo finito.

# %% [markdown] key="summary" lang="ru" src="3eccbf4c"
# ## Итоги
#
# - Несколько целей или цель из нескольких элементов суммируются: вы получаете градиент суммы.
#   Для поэлементной функции этот градиент содержит производную каждого элемента.
# - Если функция потерь — среднее, то и целью должно быть среднее: вектор из $N$ потерь
#   отдельных примеров даёт градиент в $N$ раз больше. Делите на число учитываемых примеров.
# - `if` и `for` в Python просто выполняются; лента записывает выполненные операции.
#   Переменные невыполненной ветви и входы условия получают `None`.
# - Градиент равен `None`, когда лента не нашла пути от цели к источнику: цель с ним не
#   связана, переменную заменили тензором, значения ушли в обход через NumPy, тип данных
#   целочисленный, `assign` с состоянием оборвал историю или источник вообще не отслеживался
#   (тензор без `tape.watch`, необучаемая переменная). <!-- claim: l03.none-causes --> `minitape.debugging.why_none` подскажет,
#   какой из случаев ваш. <!-- claim: l03.why-none -->
# - Операция без зарегистрированного градиента вызывает `LookupError`: перепишите её через
#   дифференцируемые операции или задайте ей градиент.
# - `unconnected_gradients=tf.UnconnectedGradients.ZERO` возвращает нули вместо `None`.
#
# В следующем уроке: как управлять тем, что записывает лента (`stop_recording`, `reset`,
# `tf.stop_gradient`), и как писать собственные градиенты с `tf.custom_gradient`, чтобы задать
# градиент операции, у которой его нет, обрезать его или сохранить конечным.

# %% [markdown] key="reflect" lang="en" questions=true
# 1. `tape.gradient` returns `None` rather than raising an error when there is no path to the
#    source. When does that help, and when does it hide a bug? Would you rather get zeros by
#    default?
# 2. Of the causes of a `None` gradient you met in this lesson, which one do you expect to run
#    into most often yourself, and what habit would prevent it?
# 3. The branch an `if` did not take gets no gradient, even though a small change of the input
#    could switch branches. What does that tell you about what a derivative can and cannot say
#    about a program?

# %% [markdown] key="reflect" lang="es" src="4120e007"
# 1. `tape.gradient` devuelve `None` en lugar de lanzar un error cuando no hay camino hasta la
#    fuente. ¿Cuándo ayuda eso y cuándo esconde un error? ¿Preferirías recibir ceros por defecto?
# 2. De las causas de un gradiente `None` que viste en esta lección, ¿con cuál crees que te vas a
#    encontrar más a menudo, y qué hábito lo evitaría?
# 3. La rama que un `if` no tomó no recibe gradiente, aunque un pequeño cambio de la entrada
#    podría hacer que se tomara. ¿Qué te dice eso sobre lo que una derivada puede y no puede decir
#    de un programa?

# %% [markdown] key="reflect" lang="pt" src="4120e007"
# 1. `tape.gradient` devolve `None` em vez de lançar um erro quando não há caminho até a fonte.
#    Quando isso ajuda, e quando esconde um bug? Você preferiria receber zeros por padrão?
# 2. Das causas de um gradiente `None` que você viu nesta lição, qual acha que vai encontrar com
#    mais frequência, e que hábito evitaria isso?
# 3. O ramo que um `if` não tomou não recebe gradiente, embora uma pequena mudança na entrada
#    pudesse fazer o programa tomá-lo. O que isso diz sobre o que uma derivada pode e não pode
#    dizer sobre um programa?

# %% [markdown] key="reflect" lang="ru" src="4120e007"
# 1. `tape.gradient` возвращает `None`, а не выбрасывает исключение, когда пути до источника нет.
#    Когда это помогает, а когда скрывает ошибку? Предпочли бы вы получать по умолчанию нули?
# 2. Какую из причин градиента `None`, разобранных в этом уроке, вы, скорее всего, будете
#    встречать у себя чаще всего и какая привычка помогла бы её избежать?
# 3. Ветвь, в которую `if` не зашёл, не получает градиента, хотя небольшое изменение входа могло
#    бы переключить ветвь. Что это говорит о том, что производная может и чего не может сообщить о
#    программе?
