# ---
# jupyter:
#   minitape:
#     lesson: 05-higher-order
# ---

# %% [markdown] key="title" lang="en"
# # Lesson 5 · Higher-order derivatives and Jacobians
#
# A gradient is computed with ordinary operations, so a tape can record it and differentiate it
# again. And where `gradient` adds up the derivatives of all the outputs, a *Jacobian* keeps
# them apart. With these two ideas you will build a Hessian, take a step of Newton's method and
# see what forward mode computes.
#
# In this lesson you will learn:
#
# - how several tapes, and tapes inside tapes, give you second derivatives;
# - what a Jacobian is, how `jacobian` computes it, and how `output_gradients` gives a
#   vector-Jacobian product in one backward pass without building the Jacobian;
# - how a Hessian and a Newton step follow from the Jacobian of a gradient;
# - how `batch_jacobian` gives one Jacobian per example, and when it silently returns zeros;
# - what forward mode (`tf.autodiff.ForwardAccumulator`) computes, and a Hessian-vector product
#   without building the Hessian.

# %% [markdown] key="title" lang="es" src="b0d5d12d"
# # Lección 5 · Derivadas de orden superior y jacobianos
#
# Un gradiente se calcula con operaciones corrientes, así que una cinta puede grabarlo y volver a
# derivarlo. Y donde `gradient` suma las derivadas de todas las salidas, un *jacobiano* las
# mantiene separadas. Con estas dos ideas construirás un hessiano, darás un paso del método de
# Newton y verás qué calcula el modo directo.
#
# En esta lección aprenderás:
#
# - cómo conviven varias cintas y cómo las cintas anidadas dan segundas derivadas;
# - qué es un jacobiano, cómo lo calcula `jacobian` y cómo `output_gradients` da un producto
#   vector-jacobiano en una sola pasada hacia atrás sin construir el jacobiano;
# - cómo se obtienen un hessiano y un paso de Newton a partir del jacobiano de un gradiente;
# - cómo `batch_jacobian` da el jacobiano de cada ejemplo, y cuándo devuelve ceros sin avisar;
# - qué calcula el modo directo (`tf.autodiff.ForwardAccumulator`) y cómo obtener un producto
#   hessiano-vector sin construir el hessiano.

# %% [markdown] key="title" lang="pt" src="b0d5d12d"
# # Lição 5 · Derivadas de ordem superior e jacobianas
#
# Um gradiente é calculado com operações comuns, então uma fita pode gravá-lo e derivá-lo de
# novo. E onde `gradient` soma as derivadas de todas as saídas, uma *jacobiana* as mantém
# separadas. Com essas duas ideias você vai construir uma hessiana, dar um passo do método de
# Newton e ver o que o modo direto calcula.
#
# Nesta lição você vai aprender:
#
# - como várias fitas convivem e como fitas aninhadas dão segundas derivadas;
# - o que é uma jacobiana, como `jacobian` a calcula e como `output_gradients` dá um produto
#   vetor-jacobiana numa única passagem para trás, sem construir a jacobiana;
# - como uma hessiana e um passo de Newton saem da jacobiana de um gradiente;
# - como `batch_jacobian` dá uma jacobiana para cada exemplo do lote, e quando ele devolve zeros
#   sem avisar;
# - o que o modo direto (`tf.autodiff.ForwardAccumulator`) calcula, e como obter um produto
#   hessiana-vetor sem construir a hessiana.

# %% [markdown] key="title" lang="ru" src="b0d5d12d"
# # Урок 5 · Производные высших порядков и якобианы
#
# Градиент вычисляется обычными операциями, поэтому лента может его записать и
# продифференцировать ещё раз. А там, где `gradient` складывает производные всех выходов,
# *якобиан* сохраняет их по отдельности. С этими двумя идеями вы построите гессиан, сделаете шаг
# метода Ньютона и увидите, что вычисляет прямой режим.
#
# В этом уроке вы узнаете:
#
# - как работают несколько лент одновременно и как вложенные ленты дают вторые производные;
# - что такое якобиан, как его вычисляет `jacobian` и как `output_gradients` даёт произведение
#   вектора на якобиан за один обратный проход, не строя сам якобиан;
# - как из якобиана градиента получаются гессиан и шаг метода Ньютона;
# - как `batch_jacobian` даёт по якобиану на каждый пример и когда он молча возвращает нули;
# - что вычисляет прямой режим (`tf.autodiff.ForwardAccumulator`) и как получить произведение
#   гессиана на вектор, не строя сам гессиан.

# %% key="setup-code"
import matplotlib.pyplot as plt
import numpy as np

import minitape as tf
from lessons.figures import describe
from lessons.i18n import t
from lessons.widgets import label_sliders, newton_explorer

tf.random.set_seed(4)
label_sliders()

# %% [markdown] key="several-tapes" lang="en"
# ## Several tapes at once
#
# Tapes do not interfere with each other: each records the operations on the tensors *it*
# watches. Here `tape0` watches $x_0$ and `tape1` watches $x_1$; the code runs once, and each
# tape records the part of it that involves its own tensor. So each tape answers for its own
# source: $\cos 0 = 1$ and $\sigma'(0) = \sigma(0)\,(1 - \sigma(0)) = 0.25$.

# %% [markdown] key="several-tapes" lang="es" src="1659c407"
# ## Varias cintas a la vez
#
# Las cintas no interfieren entre sí: cada una graba las operaciones sobre los tensores que
# observa *ella*. Aquí `tape0` observa $x_0$ y `tape1` observa $x_1$; el código se ejecuta una
# vez, y cada cinta graba la parte que tiene que ver con su propio tensor. Por eso cada cinta
# responde por su propia fuente: $\cos 0 = 1$ y
# $\sigma'(0) = \sigma(0)\,(1 - \sigma(0)) = 0{,}25$.

# %% [markdown] key="several-tapes" lang="pt" src="1659c407"
# ## Várias fitas ao mesmo tempo
#
# As fitas não interferem umas nas outras: cada uma grava as operações sobre os tensores que
# *ela* observa. Aqui `tape0` observa $x_0$ e `tape1` observa $x_1$; o código roda uma vez, e
# cada fita grava a parte dele que envolve o seu próprio tensor. Por isso cada fita responde pela
# sua própria fonte: $\cos 0 = 1$ e $\sigma'(0) = \sigma(0)\,(1 - \sigma(0)) = 0{,}25$.

# %% [markdown] key="several-tapes" lang="ru" src="1659c407"
# ## Несколько лент одновременно
#
# Ленты не мешают друг другу: каждая записывает операции над тензорами, которые отслеживает
# *она*. Здесь `tape0` отслеживает $x_0$, а `tape1` — $x_1$; код выполняется один раз, и каждая
# лента записывает ту его часть, которая касается её тензора. Поэтому каждая лента отвечает за
# свой источник: $\cos 0 = 1$ и $\sigma'(0) = \sigma(0)\,(1 - \sigma(0)) = 0{,}25$.

# %% key="several-tapes-code"
x0 = tf.constant(0.0)
x1 = tf.constant(0.0)

with tf.GradientTape() as tape0, tf.GradientTape() as tape1:
    tape0.watch(x0)
    tape1.watch(x1)

    y0 = tf.math.sin(x0)
    y1 = tf.nn.sigmoid(x1)
    y = y0 + y1
    ys = tf.reduce_sum(y)

print(tape0.gradient(ys, x0).numpy())
print(tape1.gradient(ys, x1).numpy())

# %% [markdown] key="higher-order" lang="en"
# ## Higher-order gradients
#
# A gradient is computed with ordinary operations. If those operations run while an outer tape
# is recording, the outer tape records them like any others, and can differentiate them: a
# gradient of a gradient. For $y = x^3$ at $x = 1$, the inner tape gives
# $\frac{dy}{dx} = 3x^2 = 3$ and the outer one $\frac{d^2y}{dx^2} = 6x = 6$. Note where each call
# goes: the inner `gradient` *inside* the outer `with` block, so that it gets recorded.

# %% [markdown] key="higher-order" lang="es" src="b92ef25f"
# ## Gradientes de orden superior
#
# Un gradiente se calcula con operaciones corrientes. Si esas operaciones se ejecutan mientras
# una cinta exterior está grabando, la cinta exterior las graba como a cualquier otra y puede
# derivarlas: un gradiente de un gradiente. Para $y = x^3$ en $x = 1$, la cinta interior da
# $\frac{dy}{dx} = 3x^2 = 3$ y la exterior, $\frac{d^2y}{dx^2} = 6x = 6$. Fíjate en dónde va cada
# llamada: el `gradient` interior va *dentro* del bloque `with` exterior, para que quede
# grabado.

# %% [markdown] key="higher-order" lang="pt" src="b92ef25f"
# ## Gradientes de ordem superior
#
# Um gradiente é calculado com operações comuns. Se essas operações rodam enquanto uma fita
# externa está gravando, a fita externa as grava como qualquer outra e pode derivá-las: um
# gradiente de um gradiente. Para $y = x^3$ em $x = 1$, a fita interna dá
# $\frac{dy}{dx} = 3x^2 = 3$ e a externa, $\frac{d^2y}{dx^2} = 6x = 6$. Repare onde fica cada
# chamada: o `gradient` interno fica *dentro* do bloco `with` externo, para que seja gravado.

# %% [markdown] key="higher-order" lang="ru" src="b92ef25f"
# ## Градиенты высших порядков
#
# Градиент вычисляется обычными операциями. Если они выполняются, пока идёт запись на внешнюю
# ленту, внешняя лента записывает их, как и любые другие, и может их продифференцировать:
# получается градиент от градиента. Для $y = x^3$ при $x = 1$ внутренняя лента даёт
# $\frac{dy}{dx} = 3x^2 = 3$, а внешняя — $\frac{d^2y}{dx^2} = 6x = 6$. Обратите внимание, где
# стоит каждый вызов: внутренний `gradient` находится *внутри* внешнего блока `with`, чтобы он
# записался.

# %% key="higher-order-code"
x = tf.Variable(1.0)

with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        y = x * x * x
    dy_dx = inner.gradient(y, x)
d2y_dx2 = outer.gradient(dy_dx, x)

print("dy/dx =", dy_dx.numpy())
print("d2y/dx2 =", d2y_dx2.numpy())

# %% [markdown] key="higher-order-curve" lang="en"
# The element-wise trick of lesson 3 works at every order: for an element-wise function, one
# backward pass gives $f'$ at every point of a grid, and since $f'$ is element-wise too, a second
# pass gives $f''$. Here is $f(x) = \frac{x^4}{4} - x^2 + \frac{x}{2}$ with its first two
# derivatives, all three from one pair of nested tapes. Where $f' = 0$ the tangent is horizontal.
# That point is a minimum if $f'' > 0$ there (the curve bends up), a maximum if $f'' < 0$ (it
# bends down). If $f''$ is zero too, the second derivative does not decide: $x^3$ at $x = 0$ has
# $f' = f'' = 0$ and is neither, only an inflection point where the curve changes its bend.

# %% [markdown] key="higher-order-curve" lang="es" src="446f69b6"
# El truco elemento a elemento de la lección 3 funciona en cualquier orden: para una función
# elemento a elemento, una pasada hacia atrás da $f'$ en cada punto de una malla y, como $f'$
# también es elemento a elemento, una segunda pasada da $f''$. Aquí está
# $f(x) = \frac{x^4}{4} - x^2 + \frac{x}{2}$ con sus dos primeras derivadas, las tres salidas de
# un solo par de cintas anidadas. Donde $f' = 0$, la tangente es horizontal. Ese punto es un
# mínimo si allí $f'' > 0$ (la curva es cóncava hacia arriba) y un máximo si $f'' < 0$ (cóncava
# hacia abajo). Si también $f'' = 0$, la segunda derivada no decide: $x^3$ en $x = 0$ tiene
# $f' = f'' = 0$ y no es ni mínimo ni máximo, sino un punto de inflexión, donde la curva cambia
# de curvatura.

# %% [markdown] key="higher-order-curve" lang="pt" src="446f69b6"
# O truque elemento a elemento da lição 3 funciona em qualquer ordem: para uma função elemento a
# elemento, uma passagem para trás dá $f'$ em cada ponto de uma grade e, como $f'$ também é
# elemento a elemento, uma segunda passagem dá $f''$. Aqui está
# $f(x) = \frac{x^4}{4} - x^2 + \frac{x}{2}$ com as suas duas primeiras derivadas, as três
# saídas de um único par de fitas aninhadas. Onde $f' = 0$, a reta tangente é horizontal. Esse
# ponto é um mínimo se ali $f'' > 0$ (a concavidade é voltada para cima) e um máximo se $f'' < 0$
# (a concavidade é voltada para baixo). Se $f''$ também for zero, a segunda derivada não decide: $x^3$ em $x = 0$
# tem $f' = f'' = 0$ e não é nem mínimo nem máximo, só um ponto de inflexão, onde a curva muda
# de concavidade.

# %% [markdown] key="higher-order-curve" lang="ru" src="446f69b6"
# Поэлементный приём из урока 3 работает для производных любого порядка: для поэлементной
# функции один обратный проход даёт $f'$ во всех точках сетки, а так как $f'$ тоже
# поэлементна, второй проход даёт $f''$. Вот $f(x) = \frac{x^4}{4} - x^2 + \frac{x}{2}$ и две её
# первые производные — все три получены одной парой вложенных лент. Там, где $f' = 0$,
# касательная горизонтальна. Такая точка — минимум, если в ней $f'' > 0$ (график выпуклый вниз),
# и максимум, если $f'' < 0$ (выпуклый вверх). Если и $f'' = 0$, вторая производная ответа не
# даёт: у $x^3$ в точке $x = 0$ имеем $f' = f'' = 0$, но это ни минимум, ни максимум, а точка перегиба,
# где график меняет направление выпуклости.

# %% key="higher-order-curve-code"
def f(x):
    return x**4 / 4 - x**2 + x / 2


xs = tf.constant(np.linspace(-2.5, 2.5, 201))
with tf.GradientTape() as outer:
    outer.watch(xs)
    with tf.GradientTape() as inner:
        inner.watch(xs)
        ys = f(xs)
    d1 = inner.gradient(ys, xs)
d2 = outer.gradient(d1, xs)

plt.figure(figsize=(6.4, 3.8))
plt.plot(xs.numpy(), ys.numpy(), label="f(x)")
plt.plot(xs.numpy(), d1.numpy(), "--", label="f′(x)")
plt.plot(xs.numpy(), d2.numpy(), ":", label="f″(x)")
plt.axhline(0.0, color="0.8", linewidth=0.8, zorder=0)
plt.ylim(-4, 6)
plt.xlabel(t("plot.x"))
plt.title(t("l05.derivatives.title"), fontsize=10)
plt.legend()
describe(t("l05.derivatives.alt"))
plt.show()

# %% [markdown] key="input-gradient" lang="en"
# ### A gradient inside a loss
#
# Higher-order gradients are not only for calculus exercises. *Input-gradient regularization*
# makes a model less sensitive to small changes of its input (adversarial examples are exactly
# such changes): it adds the size of $\frac{\partial \text{output}}{\partial \text{input}}$ to
# the loss. Training on that loss needs its gradient with respect to the model's variables, a
# gradient of a gradient:
#
# 1. the inner tape computes the gradient of the output with respect to the input;
# 2. the magnitude of that gradient is computed, still under the outer tape;
# 3. the outer tape differentiates that magnitude with respect to the model's variables.

# %% [markdown] key="input-gradient" lang="es" src="888ff9ac"
# ### Un gradiente dentro de una pérdida
#
# Los gradientes de orden superior no sirven solo para ejercicios de cálculo. La
# *regularización por gradiente de la entrada* hace que un modelo sea menos sensible a cambios
# pequeños de su entrada (los ejemplos adversarios son justamente cambios así): suma a la pérdida
# el tamaño de $\frac{\partial\,\text{salida}}{\partial\,\text{entrada}}$. Entrenar con esa pérdida
# exige su gradiente respecto de las variables del modelo, un gradiente de un gradiente:
#
# 1. la cinta interior calcula el gradiente de la salida respecto de la entrada;
# 2. se calcula la magnitud de ese gradiente, todavía bajo la cinta exterior;
# 3. la cinta exterior deriva esa magnitud respecto de las variables del modelo.

# %% [markdown] key="input-gradient" lang="pt" src="888ff9ac"
# ### Um gradiente dentro de uma perda
#
# Gradientes de ordem superior não servem só para exercícios de cálculo. A *regularização pelo
# gradiente da entrada* deixa um modelo menos sensível a pequenas mudanças na entrada (exemplos
# adversariais são justamente mudanças assim): ela soma à perda o tamanho de
# $\frac{\partial\,\text{saída}}{\partial\,\text{entrada}}$. Treinar com essa perda exige o seu
# gradiente em relação às variáveis do modelo, um gradiente de um gradiente:
#
# 1. a fita interna calcula o gradiente da saída em relação à entrada;
# 2. a magnitude desse gradiente é calculada, ainda sob a fita externa;
# 3. a fita externa deriva essa magnitude em relação às variáveis do modelo.

# %% [markdown] key="input-gradient" lang="ru" src="888ff9ac"
# ### Градиент внутри функции потерь
#
# Градиенты высших порядков нужны не только для упражнений по анализу. *Регуляризация по
# градиенту входа* делает модель менее чувствительной к небольшим изменениям входа
# (состязательные примеры — как раз такие изменения): к функции потерь добавляется норма
# градиента выхода по входу, $\left\lVert \frac{\partial\,\text{выход}}{\partial\,\text{вход}} \right\rVert$. Чтобы обучаться на такой функции потерь,
# нужен её градиент по переменным модели — градиент от градиента:
#
# 1. внутренняя лента вычисляет градиент выхода по входу;
# 2. вычисляется норма этого градиента — всё ещё под внешней лентой;
# 3. внешняя лента дифференцирует эту норму по переменным модели.

# %% key="input-gradient-code" tf="random"
x = tf.random.normal([7, 5])
layer = tf.keras.layers.Dense(10, activation=tf.nn.relu)

with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        inner.watch(x)
        out = tf.reduce_sum(layer(x) ** 2)
    g = inner.gradient(out, x)  # 1.
    g_magnitude = tf.norm(g)  # 2.

d_magnitude = outer.gradient(g_magnitude, layer.trainable_variables)  # 3.
print([var.shape for var in d_magnitude])

# %% [markdown] key="jacobian" lang="en"
# ## Jacobians
#
# `gradient` adds up the target's elements (lesson 3). A *Jacobian* keeps them apart: for a
# target $y$ and a source $x$ it holds every $\frac{\partial y_i}{\partial x_j}$, and
# `tape.jacobian(target, source)` has shape `target.shape + source.shape`. Lesson 3 found that
# the gradient of a softmax's outputs is zero; the Jacobian shows what each output does. Each of
# its columns adds up to zero, which is why their sum gave zero:

# %% [markdown] key="jacobian" lang="es" src="aed2e58e"
# ## Jacobianos
#
# `gradient` suma los elementos del objetivo (lección 3). Un *jacobiano* los mantiene separados:
# para un objetivo $y$ y una fuente $x$ contiene todas las $\frac{\partial y_i}{\partial x_j}$, y
# `tape.jacobian(target, source)` tiene forma `target.shape + source.shape`. En la lección 3 vimos
# que el gradiente de las salidas de una softmax es cero; el jacobiano muestra qué hace cada
# salida. Cada una de sus columnas suma cero, y por eso su suma daba cero:

# %% [markdown] key="jacobian" lang="pt" src="aed2e58e"
# ## Jacobianas
#
# `gradient` soma os elementos do alvo (lição 3). Uma *jacobiana* os mantém separados: para um
# alvo $y$ e uma fonte $x$ ela contém todas as $\frac{\partial y_i}{\partial x_j}$, e
# `tape.jacobian(target, source)` tem formato `target.shape + source.shape`. Na lição 3 vimos
# que o gradiente das saídas de uma softmax é zero; a jacobiana mostra o que cada saída faz. Cada
# uma das suas colunas soma zero, e é por isso que a soma dava zero:

# %% [markdown] key="jacobian" lang="ru" src="aed2e58e"
# ## Якобианы
#
# `gradient` складывает элементы цели (урок 3). *Якобиан* хранит их по отдельности: для цели $y$
# и источника $x$ он содержит все $\frac{\partial y_i}{\partial x_j}$, а
# `tape.jacobian(target, source)` имеет форму `target.shape + source.shape`. В уроке 3 оказалось,
# что градиент выходов softmax равен нулю; якобиан показывает, что делает каждый выход. Каждый
# его столбец в сумме даёт ноль — вот почему сумма и была нулевой:

# %% key="jacobian-code"
logits = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    tape.watch(logits)
    probabilities = tf.nn.softmax(logits)

j = tape.jacobian(probabilities, logits)
print(j.shape)
print(np.round(j.numpy(), 4))
print("reduce_sum(j, axis=0) =", np.round(tf.reduce_sum(j, axis=0).numpy(), 6))

# %% [markdown] key="jacobian-scalar" lang="en"
# ### A scalar source
#
# With a scalar source the Jacobian has the shape of the target: one derivative per target
# element. Shifting a sigmoid by $\delta$ changes each of its 201 values at its own rate
# $\sigma'(x_i + \delta)$. The gradient, in comparison, is a single number, the sum of those
# rates:

# %% [markdown] key="jacobian-scalar" lang="es" src="9d877310"
# ### Una fuente escalar
#
# Con una fuente escalar, el jacobiano tiene la forma del objetivo: una derivada por cada elemento
# del objetivo. Desplazar una sigmoide en $\delta$ cambia cada uno de sus 201 valores a su propio
# ritmo, $\sigma'(x_i + \delta)$. El gradiente, en cambio, es un único número: la suma de esos
# ritmos.

# %% [markdown] key="jacobian-scalar" lang="pt" src="9d877310"
# ### Uma fonte escalar
#
# Com uma fonte escalar, a jacobiana tem o formato do alvo: uma derivada por elemento do alvo.
# Deslocar uma sigmoide de $\delta$ muda cada um dos seus 201 valores à sua própria taxa,
# $\sigma'(x_i + \delta)$. O gradiente, em comparação, é um único número: a soma dessas
# taxas.

# %% [markdown] key="jacobian-scalar" lang="ru" src="9d877310"
# ### Скалярный источник
#
# Если источник — скаляр, якобиан имеет форму цели: по одной производной на каждый элемент цели.
# Сдвиг сигмоиды на $\delta$ меняет каждое из её 201 значения со своей скоростью
# $\sigma'(x_i + \delta)$. Градиент же — одно число, сумма этих скоростей.

# %% key="jacobian-scalar-code"
x = tf.linspace(-10.0, 10.0, 201)
delta = tf.Variable(0.0)

with tf.GradientTape(persistent=True) as tape:
    y = tf.nn.sigmoid(x + delta)

dy_ddelta = tape.jacobian(y, delta)
print("y:", y.shape, "   tape.jacobian(y, delta):", dy_ddelta.shape,
      "   tape.gradient(y, delta):", tape.gradient(y, delta).shape)
print("max |dy_ddelta - σ(1 - σ)| =", np.abs(dy_ddelta.numpy() - (y * (1 - y)).numpy()).max())
del tape

# %% [markdown] key="jacobian-tensor" lang="en"
# ### A tensor source
#
# For a `Dense` layer with 10 units on a batch of 7 inputs with 5 features, the output has shape
# (7, 10) and the kernel (5, 10): the Jacobian has shape (7, 10, 5, 10). Summed over the
# target's axes it gives back the gradient. The Jacobian asks for one vector-Jacobian product
# per target element, here 70; TensorFlow and minitape both compute them together in one
# vectorized pass, but the work still grows with the number of target elements, so it is
# expensive for large targets. <!-- claim: l05.jacobian-vectorized -->

# %% [markdown] key="jacobian-tensor" lang="es" src="d7a992ca"
# ### Una fuente tensorial
#
# Para una capa `Dense` de 10 unidades sobre un lote de 7 entradas con 5 características, la
# salida tiene forma (7, 10) y el kernel, (5, 10): el jacobiano tiene forma (7, 10, 5, 10). Si lo
# sumas sobre los ejes del objetivo, recuperas el gradiente. El jacobiano pide un producto
# vector-jacobiano por cada elemento del objetivo, aquí 70; TensorFlow y minitape los calculan
# juntos en una sola pasada vectorizada, pero el trabajo sigue creciendo con el número de
# elementos del objetivo, así que sale caro para objetivos grandes. <!-- claim: l05.jacobian-vectorized -->

# %% [markdown] key="jacobian-tensor" lang="pt" src="d7a992ca"
# ### Uma fonte tensorial
#
# Para uma camada `Dense` de 10 unidades sobre um lote de 7 entradas com 5 atributos, a saída tem
# formato (7, 10) e o kernel, (5, 10): a jacobiana tem formato (7, 10, 5, 10). Somada sobre os
# eixos do alvo, ela devolve o gradiente. A jacobiana pede um produto vetor-jacobiana por
# elemento do alvo, aqui 70; o TensorFlow e o minitape os calculam juntos numa única passagem
# vetorizada, mas o trabalho continua crescendo com o número de elementos do alvo, então ela fica
# cara para alvos grandes. <!-- claim: l05.jacobian-vectorized -->

# %% [markdown] key="jacobian-tensor" lang="ru" src="d7a992ca"
# ### Тензорный источник
#
# Для слоя `Dense` из 10 нейронов на батче из 7 входов с 5 признаками выход имеет форму (7, 10),
# а матрица весов (`kernel`) — (5, 10): якобиан имеет форму (7, 10, 5, 10). Если просуммировать его по осям
# цели, получится градиент. Якобиан требует одного произведения вектора на якобиан на каждый
# элемент цели, здесь их 70; TensorFlow и minitape вычисляют их вместе за один векторизованный
# проход, но работа всё равно растёт с числом элементов цели, поэтому для больших целей он
# дорог. <!-- claim: l05.jacobian-vectorized -->

# %% key="jacobian-tensor-code" tf="random"
x = tf.random.normal([7, 5])
layer = tf.keras.layers.Dense(10, activation=tf.nn.relu)

with tf.GradientTape(persistent=True) as tape:
    y = layer(x)

j = tape.jacobian(y, layer.kernel)
g = tape.gradient(y, layer.kernel)
del tape

print("y:", y.shape, "   layer.kernel:", layer.kernel.shape, "   j:", j.shape)
j_sum = tf.reduce_sum(j, axis=[0, 1])
print("max |j_sum - g| =", tf.reduce_max(tf.abs(g - j_sum)).numpy())

# %% [markdown] key="output-gradients" lang="en"
# ### A vector-Jacobian product in one pass: `output_gradients`
#
# `tape.gradient(y, x)` starts the backward pass with ones for every element of `y`, which is
# why it returns the Jacobian's rows added up. `output_gradients=u` starts it with `u` instead
# (a tensor of the shape of `y`) and returns $u^\top J$, the rows weighted by `u`: a
# vector-Jacobian product for the price of one backward pass, without building $J$. This is
# what each layer computes during backpropagation from the gradient the next layer hands it, and
# what the backward pass of the tape you build in lesson 7 computes:

# %% [markdown] key="output-gradients" lang="es" src="3deb3277"
# ### Un producto vector-jacobiano en una sola pasada: `output_gradients`
#
# `tape.gradient(y, x)` empieza la pasada hacia atrás con unos en cada elemento de `y`; por eso
# devuelve las filas del jacobiano sumadas. `output_gradients=u` la empieza con `u` (un tensor
# de la forma de `y`) y devuelve $u^\top J$, las filas ponderadas por `u`: un producto
# vector-jacobiano al precio de una pasada hacia atrás, sin construir $J$. Es lo que cada capa
# calcula en la retropropagación con el gradiente que le llega de la capa siguiente, y lo que
# calcula la pasada hacia atrás de la
# cinta que construirás en la lección 7:

# %% [markdown] key="output-gradients" lang="pt" src="3deb3277"
# ### Um produto vetor-jacobiana numa única passagem: `output_gradients`
#
# `tape.gradient(y, x)` começa a passagem para trás com uns em cada elemento de `y`; por isso
# devolve as linhas da jacobiana somadas. `output_gradients=u` a começa com `u` (um tensor com
# o formato de `y`) e devolve $u^\top J$, as linhas ponderadas por `u`: um produto
# vetor-jacobiana pelo preço de uma passagem para trás, sem construir $J$. É o que cada camada
# calcula na retropropagação com o gradiente que chega da camada seguinte, e o que calcula a passagem para trás da fita que
# você vai construir na lição 7:

# %% [markdown] key="output-gradients" lang="ru" src="3deb3277"
# ### Произведение вектора на якобиан за один проход: `output_gradients`
#
# `tape.gradient(y, x)` начинает обратный проход с единиц во всех элементах `y`, поэтому и
# возвращает сумму строк якобиана. `output_gradients=u` начинает его с `u` (тензора формы `y`)
# и возвращает $u^\top J$ — строки, взвешенные по `u`: произведение вектора на якобиан по цене
# одного обратного прохода, без построения $J$. Именно это произведение каждый слой вычисляет
# при обратном распространении, получив градиент от следующего слоя, и именно это вычисляет обратный проход ленты, которую вы
# построите в уроке 7:

# %% key="output-gradients-code"
x = tf.Variable([1.0, 2.0, 3.0])
u = tf.constant([1.0, 0.0, -2.0])
with tf.GradientTape(persistent=True) as tape:
    y = tf.math.sin(x) * x

vjp = tape.gradient(y, x, output_gradients=u)
jac = tape.jacobian(y, x)
del tape
print(vjp.numpy())
print(u.numpy() @ jac.numpy())

# %% [markdown] key="hessian" lang="en"
# ## The Hessian
#
# The *Hessian* of a scalar loss $L$ holds its second derivatives
# $\frac{\partial^2 L}{\partial w_i \partial w_j}$: it is the Jacobian of the gradient. So an
# inner tape computes the gradient and an outer tape takes its `jacobian`. For the (5, 8) kernel
# of a first layer the Hessian has shape (5, 8, 5, 8); reshaped, it is a 40 × 40 symmetric
# matrix. It grows with the *square* of the number of parameters, which is why the Hessian of
# a real network is never built in full.

# %% [markdown] key="hessian" lang="es" src="2170529b"
# ## El hessiano
#
# El *hessiano* de una pérdida escalar $L$ contiene sus segundas derivadas
# $\frac{\partial^2 L}{\partial w_i \partial w_j}$: es el jacobiano del gradiente. Así que una
# cinta interior calcula el gradiente y una cinta exterior toma su `jacobian`. Para el kernel
# (5, 8) de una primera capa, el hessiano tiene forma (5, 8, 5, 8); reorganizado, es una matriz
# simétrica de 40 × 40. Crece con el *cuadrado* del número de parámetros, y por eso el hessiano
# de una red real nunca se construye entero.

# %% [markdown] key="hessian" lang="pt" src="2170529b"
# ## A hessiana
#
# A *hessiana* de uma perda escalar $L$ contém as suas segundas derivadas
# $\frac{\partial^2 L}{\partial w_i \partial w_j}$: ela é a jacobiana do gradiente. Então uma fita
# interna calcula o gradiente e uma fita externa toma o seu `jacobian`. Para o kernel (5, 8) de
# uma primeira camada, a hessiana tem formato (5, 8, 5, 8); reorganizada, é uma matriz simétrica
# 40 × 40. Ela cresce com o *quadrado* do número de parâmetros, e é por isso que a hessiana de
# uma rede de verdade nunca é construída inteira.

# %% [markdown] key="hessian" lang="ru" src="2170529b"
# ## Гессиан
#
# *Гессиан* скалярной функции потерь $L$ содержит её вторые производные
# $\frac{\partial^2 L}{\partial w_i \partial w_j}$: это якобиан градиента. Поэтому внутренняя
# лента вычисляет градиент, а внешняя берёт от него `jacobian`. Для матрицы весов (5, 8) первого слоя
# гессиан имеет форму (5, 8, 5, 8), а если развернуть его в матрицу (`tf.reshape`), получится
# симметричная матрица 40 × 40. Он растёт как *квадрат* числа параметров, поэтому гессиан настоящей сети целиком
# никогда не строят.

# %% key="hessian-code" tf="random"
x = tf.random.normal([7, 5])
layer1 = tf.keras.layers.Dense(8, activation=tf.nn.relu)
layer2 = tf.keras.layers.Dense(6, activation=tf.nn.relu)


def network_loss():
    return tf.reduce_mean(layer2(layer1(x)) ** 2)


with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        loss = network_loss()
    g = inner.gradient(loss, layer1.kernel)
h = outer.jacobian(g, layer1.kernel)

n_params = int(np.prod(layer1.kernel.shape))
h_mat = tf.reshape(h, [n_params, n_params])
print("layer1.kernel:", layer1.kernel.shape, "   h:", h.shape, "   h_mat:", h_mat.shape)
print("max |H - Hᵀ| =", np.abs(h_mat.numpy() - h_mat.numpy().T).max())

plt.figure(figsize=(5.6, 4.4))
limit = np.abs(h_mat.numpy()).max()
plt.imshow(h_mat.numpy(), cmap="RdBu_r", vmin=-limit, vmax=limit)
plt.colorbar()
plt.title(t("l05.hessian.title"), fontsize=10)
describe(t("l05.hessian.alt"))
plt.show()

# %% [markdown] key="newton" lang="en"
# ## A Newton step
#
# Gradient descent steps along $-g$ with a step size you choose. *Newton's method* uses the
# curvature as well: near a minimum the loss is roughly a parabola, and the step
# $\Delta = H^{-1} g$ jumps to the bottom of that parabola. Instead of inverting $H$, solve the
# linear system $H \Delta = g$ with `tf.linalg.solve`. This $H$ is singular, though: it has zero
# eigenvalues, whose eigenvectors are directions in which the loss does not curve at all (a ReLU network is piecewise
# linear, so all its curvature comes from the square in the loss). Adding a small
# $\varepsilon I$ makes the system solvable:

# %% [markdown] key="newton" lang="es" src="1a720a06"
# ## Un paso de Newton
#
# El descenso del gradiente avanza en la dirección $-g$ con una tasa de aprendizaje que eliges tú. El
# *método de Newton* usa además la curvatura: cerca de un mínimo, la pérdida es más o menos una
# parábola, y el paso $\Delta = H^{-1} g$ salta al fondo de esa parábola. En lugar de invertir
# $H$, resuelve el sistema lineal $H \Delta = g$ con `tf.linalg.solve`. Eso sí, esta $H$ es
# singular: tiene autovalores nulos, cuyos autovectores son direcciones en las que la pérdida no
# se curva en absoluto
# (una red ReLU es lineal a trozos, así que toda su curvatura viene del cuadrado de la pérdida).
# Sumar un pequeño $\varepsilon I$ hace que el sistema tenga una única solución:

# %% [markdown] key="newton" lang="pt" src="1a720a06"
# ## Um passo de Newton
#
# A descida do gradiente anda na direção $-g$ com uma taxa de aprendizado escolhida por você. O
# *método de Newton* também usa a curvatura: perto de um mínimo, a perda é mais ou menos uma
# parábola, e o passo $\Delta = H^{-1} g$ salta para o fundo dessa parábola. Em vez de inverter
# $H$, resolva o sistema linear $H \Delta = g$ com `tf.linalg.solve`. Só que esta $H$ é singular:
# ela tem autovalores nulos, cujos autovetores são direções em que a perda não se curva nada (uma rede ReLU é linear
# por partes, então toda a sua curvatura vem do quadrado na perda). Somar um pequeno
# $\varepsilon I$ faz o sistema ter uma única solução:

# %% [markdown] key="newton" lang="ru" src="1a720a06"
# ## Шаг метода Ньютона
#
# Градиентный спуск делает шаг в направлении $-g$ со скоростью обучения, которую выбираете вы. *Метод
# Ньютона* учитывает ещё и кривизну: вблизи минимума функция потерь примерно парабола, и шаг
# $\Delta = H^{-1} g$ переносит прямо на дно этой параболы. Вместо того чтобы обращать $H$,
# решите линейную систему $H \Delta = g$ с помощью `tf.linalg.solve`. Правда, этот $H$
# вырожден: у него есть нулевые собственные значения, и соответствующие собственные векторы —
# направления, вдоль которых функция потерь вообще не искривлена (сеть с ReLU кусочно-линейна, и вся её кривизна берётся из квадрата в
# функции потерь). Небольшая добавка $\varepsilon I$ делает решение системы единственным:

# %% key="newton-code" tf="random"
g_vec = tf.reshape(g, [n_params, 1])
print("eigvalsh(H)[:3] =", np.round(np.linalg.eigvalsh(h_mat.numpy())[:3], 6) + 0.0)

eps = 1e-3
update = tf.linalg.solve(h_mat + eps * tf.eye(n_params), g_vec)

print("L(w)     =", network_loss().numpy())
layer1.kernel.assign_sub(tf.reshape(update, layer1.kernel.shape))
print("L(w - Δ) =", network_loss().numpy())

# %% [markdown] key="newton-1d" lang="en"
# In one dimension the Hessian is just $f''$ and the step is $\frac{f'(x)}{f''(x)}$. Let us compare
# Newton's method with gradient descent (step size 0.1) on the $f$ of the figure above, starting
# at $x = 2.5$, with both derivatives from nested tapes. <!-- claim: l05.newton-1d --> The figure shows the slope
# $|f'(x_k)|$ after each step, how far each method still is from a point where $f' = 0$: <!-- claim: l05.newton-1d --> gradient descent gains a roughly constant factor per
# step, while Newton's method roughly *doubles the number of correct digits* per step once it is
# close.

# %% [markdown] key="newton-1d" lang="es" src="3d1f8325"
# En una dimensión, el hessiano es simplemente $f''$ y el paso es $\frac{f'(x)}{f''(x)}$.
# Comparemos el método de Newton con el descenso del gradiente (tasa de aprendizaje 0,1) sobre la $f$ de
# la figura anterior, empezando en $x = 2{,}5$, con ambas derivadas obtenidas con cintas anidadas. <!-- claim: l05.newton-1d -->
# La figura muestra $|f'(x_k)|$, cuánto le falta todavía a cada método para llegar a un punto
# crítico ($f' = 0$): <!-- claim: l05.newton-1d --> el
# descenso del gradiente mejora en un factor más o menos constante en cada paso, mientras que el
# método de Newton, una vez cerca, *duplica aproximadamente el número de cifras correctas* en
# cada paso.

# %% [markdown] key="newton-1d" lang="pt" src="3d1f8325"
# Em uma dimensão, a hessiana é simplesmente $f''$ e o passo é $\frac{f'(x)}{f''(x)}$. Vamos
# comparar o método de Newton com a descida do gradiente (taxa de aprendizado 0,1) na $f$ da figura
# acima, começando em $x = 2{,}5$, com as duas derivadas vindas de fitas aninhadas. <!-- claim: l05.newton-1d --> A figura mostra
# $|f'(x_k)|$, quanto falta a cada método para chegar a um ponto crítico ($f' = 0$): <!-- claim: l05.newton-1d --> a descida do gradiente
# melhora por um fator mais ou menos constante a cada passo, enquanto o método de Newton, quando
# já está perto, *praticamente dobra o número de dígitos corretos* a cada passo.

# %% [markdown] key="newton-1d" lang="ru" src="3d1f8325"
# В одномерном случае гессиан — это просто $f''$, а шаг равен $\frac{f'(x)}{f''(x)}$. Сравним
# метод Ньютона с градиентным спуском (скорость обучения 0,1) для $f$ с рисунка выше, начиная с
# $x = 2{,}5$; обе производные даёт пара вложенных лент. <!-- claim: l05.newton-1d --> На рисунке показано $|f'(x_k)|$ — насколько
# каждый метод ещё далёк от критической точки ($f' = 0$): <!-- claim: l05.newton-1d --> градиентный спуск за шаг улучшает результат
# примерно в постоянное число раз, а метод Ньютона вблизи решения *примерно удваивает число
# верных знаков* на каждом шаге.

# %% key="newton-1d-code"
def newton_path(x0, steps=8):
    x = tf.Variable(float(x0), dtype=tf.float64)
    path = [float(x0)]
    for _ in range(steps):
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                y = f(x)
            dy = inner.gradient(y, x)
        d2y = outer.gradient(dy, x)
        x.assign_sub(dy / d2y)
        path.append(float(x.numpy()))
        if not np.isfinite(path[-1]):
            break
    return np.array(path)


def descent_path(x0, steps=8, lr=0.1):
    x = tf.Variable(float(x0), dtype=tf.float64)
    path = [float(x0)]
    for _ in range(steps):
        with tf.GradientTape() as tape:
            y = f(x)
        x.assign_sub(lr * tape.gradient(y, x))
        path.append(float(x.numpy()))
    return np.array(path)


def slope(points):
    return np.abs(points**3 - 2 * points + 0.5)  # |f′(x)| = |x³ - 2x + 0.5|


newton_points, descent_points = newton_path(2.5), descent_path(2.5)
plt.figure(figsize=(6.0, 3.6))
plt.semilogy(slope(descent_points) + 1e-17, "o-", label=t("l05.newton.descent"))
plt.semilogy(slope(newton_points) + 1e-17, "s-", color="C1", label=t("l05.newton.newton"))
plt.xlabel(t("l05.newton.step"))
plt.ylabel("|f′(x)|")
plt.title(t("l05.newton.convergence"), fontsize=10)
plt.legend()
describe(t("l05.newton.alt"))
plt.show()
print(t("l05.newton.newton") + ":", np.round(newton_points, 4))
print(t("l05.newton.descent") + ":", np.round(descent_points, 4))

# %% [markdown] key="newton-widget" lang="en"
# ### Explore: where Newton's method goes
#
# Move the starting point. Newton's method looks for a point where $f' = 0$, and it does not
# care whether that point is a minimum or a maximum. Start between the two inflection points
# ($-0.82 < x_0 < 0.82$, where $f'' < 0$) and see where it ends up; then start close to an
# inflection point, where $f''$ is nearly zero and the step $\frac{f'}{f''}$ is huge. Gradient
# descent is slower but always goes downhill.

# %% [markdown] key="newton-widget" lang="es" src="a00527a2"
# ### Explora: adónde va el método de Newton
#
# Mueve el punto de partida. El método de Newton busca un punto donde $f' = 0$, y le da igual que
# ese punto sea un mínimo o un máximo. Empieza entre los dos puntos de inflexión
# ($-0{,}82 < x_0 < 0{,}82$, donde $f'' < 0$) y mira dónde acaba; después empieza cerca de un punto
# de inflexión, donde $f''$ es casi cero y el paso $\frac{f'}{f''}$ es enorme. El descenso del
# gradiente es más lento, pero siempre va cuesta abajo.

# %% [markdown] key="newton-widget" lang="pt" src="a00527a2"
# ### Explore: para onde o método de Newton vai
#
# Mova o ponto de partida. O método de Newton procura um ponto onde $f' = 0$, e para ele tanto faz
# se esse ponto é um mínimo ou um máximo. Comece entre os dois pontos de inflexão
# ($-0{,}82 < x_0 < 0{,}82$, onde $f'' < 0$) e veja onde ele termina; depois comece perto de um ponto
# de inflexão, onde $f''$ é quase zero e o passo $\frac{f'}{f''}$ é enorme. A descida do
# gradiente é mais lenta, mas sempre desce a ladeira.

# %% [markdown] key="newton-widget" lang="ru" src="a00527a2"
# ### Исследуйте: куда приходит метод Ньютона
#
# Двигайте ползунок начальной точки $x_0$. Метод Ньютона ищет точку, где $f' = 0$, и ему всё равно, минимум это
# или максимум. Начните между двумя точками перегиба ($-0{,}82 < x_0 < 0{,}82$, где $f'' < 0$) и
# посмотрите, где он окажется; затем начните рядом с точкой перегиба, где $f''$ почти равна нулю
# и шаг $\frac{f'}{f''}$ огромен. Градиентный спуск медленнее, но всегда идёт вниз по склону.

# %% key="newton-widget-code" tf="course"
newton_explorer(f, newton=newton_path, descent=descent_path, x_range=(-2.5, 2.5), x0=2.0, ylim=(-2.5, 3.0))

# %% [markdown] key="batch-jacobian-full" lang="en"
# ## Batch Jacobians
#
# A batch holds independent examples: row $b$ of a network's output depends only on row $b$ of
# its input. For a batch of 7 inputs with 5 features and 6 outputs each, the full Jacobian has
# shape (7, 6, 7, 5), but every block that pairs the output of one example with the input of
# another is zero. The picture shows it with the Jacobian flattened to 42 × 35: only the blocks on
# the diagonal hold anything. <!-- claim: l05.batch-jacobian-blocks -->

# %% [markdown] key="batch-jacobian-full" lang="es" src="0d6c7d91"
# ## Jacobianos por lotes
#
# Un lote contiene ejemplos independientes: la fila $b$ de la salida de una red depende solo de la
# fila $b$ de su entrada. Para un lote de 7 entradas con 5 características y 6 salidas cada una,
# el jacobiano completo tiene forma (7, 6, 7, 5), pero todo bloque que empareja la salida de un
# ejemplo con la entrada de otro es cero. El dibujo lo muestra con el jacobiano aplanado a
# 42 × 35: solo los bloques de la diagonal tienen valores distintos de cero. <!-- claim: l05.batch-jacobian-blocks -->

# %% [markdown] key="batch-jacobian-full" lang="pt" src="0d6c7d91"
# ## Jacobianas em lote
#
# Um lote contém exemplos independentes: a linha $b$ da saída de uma rede depende só da linha $b$
# da sua entrada. Para um lote de 7 entradas com 5 atributos e 6 saídas cada, a jacobiana
# completa tem formato (7, 6, 7, 5), mas todo bloco que junta a saída de um exemplo com a entrada
# de outro é zero. A figura mostra isso com a jacobiana achatada para 42 × 35: só os blocos da
# diagonal têm valores diferentes de zero. <!-- claim: l05.batch-jacobian-blocks -->

# %% [markdown] key="batch-jacobian-full" lang="ru" src="0d6c7d91"
# ## Якобианы по батчу
#
# Батч состоит из независимых примеров: строка $b$ выхода сети зависит только от строки
# $b$ её входа. Для батча из 7 примеров (у каждого 5 входных признаков и 6 выходов) полный
# якобиан имеет форму (7, 6, 7, 5), но любой блок, связывающий выход одного примера со входом другого, равен
# нулю. На рисунке якобиан развёрнут в матрицу 42 × 35: ненулевые элементы есть только в
# диагональных блоках. <!-- claim: l05.batch-jacobian-blocks -->

# %% key="batch-jacobian-full-code" tf="random"
x = tf.random.normal([7, 5])
layer1 = tf.keras.layers.Dense(8, activation=tf.nn.elu)
layer2 = tf.keras.layers.Dense(6, activation=tf.nn.elu)

with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
    tape.watch(x)
    y = layer2(layer1(x))

j = tape.jacobian(y, x)
print("y:", y.shape, " x:", x.shape, " j:", j.shape)

plt.figure(figsize=(4.2, 4.6))
plt.imshow(np.abs(tf.reshape(j, [42, 35]).numpy()) > 0, cmap="Greys")
plt.xlabel(t("l05.batch.source"))
plt.ylabel(t("l05.batch.target"))
plt.title(t("l05.batch.title"), fontsize=10)
describe(t("l05.batch.alt"))
plt.show()

# %% [markdown] key="batch-jacobian" lang="en"
# `tape.batch_jacobian(target, source)` computes only those diagonal blocks, one (6, 5) Jacobian
# per example: shape (7, 6, 5). They are the blocks `j[b, :, b, :]` of the full Jacobian, which
# `tf.einsum("bxby->bxy", j)` picks out:

# %% [markdown] key="batch-jacobian" lang="es" src="7c542a88"
# `tape.batch_jacobian(target, source)` calcula solo esos bloques diagonales, un jacobiano de
# (6, 5) por cada ejemplo: forma (7, 6, 5). Son los bloques `j[b, :, b, :]` del jacobiano completo, que
# `tf.einsum("bxby->bxy", j)` extrae:

# %% [markdown] key="batch-jacobian" lang="pt" src="7c542a88"
# `tape.batch_jacobian(target, source)` calcula só esses blocos diagonais, uma jacobiana (6, 5)
# para cada exemplo: formato (7, 6, 5). Eles são os blocos `j[b, :, b, :]` da jacobiana completa, que
# `tf.einsum("bxby->bxy", j)` extrai:

# %% [markdown] key="batch-jacobian" lang="ru" src="7c542a88"
# `tape.batch_jacobian(target, source)` вычисляет только эти диагональные блоки — по якобиану
# (6, 5) на каждый пример: форма (7, 6, 5). Это блоки `j[b, :, b, :]` полного якобиана, и
# `tf.einsum("bxby->bxy", j)` их извлекает:

# %% key="batch-jacobian-code" tf="random"
jb = tape.batch_jacobian(y, x)
print(t("l05.batch_shape", shape=jb.shape))

j_select = tf.einsum("bxby->bxy", j)
print("max |jb - j_select| =", tf.reduce_max(tf.abs(jb - j_select)).numpy())

# %% [markdown] key="batch-jacobian-sum" lang="en"
# Why is `batch_jacobian` cheaper? Because only the diagonal blocks are nonzero, adding up the
# Jacobian over a batch axis loses nothing. Summed over the *source's* batch axis, row $b$ keeps
# just the block of example $b$: that sum *is* the batch Jacobian. Summed over the *target's*
# batch axis, it is what a single backward pass gives: the gradient of
# $\sum_b y_{b,k}$ with respect to $x$ holds $\frac{\partial y_{b,k}}{\partial x_b}$ in row $b$. So
# `batch_jacobian` needs one vector-Jacobian product per output feature (6), where `jacobian`
# needs one per output element (42).

# %% [markdown] key="batch-jacobian-sum" lang="es" src="70d7c9c6"
# ¿Por qué `batch_jacobian` sale más barato? Como solo los bloques diagonales son distintos de
# cero, sumar el jacobiano sobre un eje de lote no pierde nada. Sumado sobre el eje de lote de la
# *fuente*, la fila $b$ conserva solo el bloque del ejemplo $b$: esa suma *es* el jacobiano por
# lotes. Sumado sobre el eje de lote del *objetivo*, es lo que da una sola pasada hacia atrás: el
# gradiente de $\sum_b y_{b,k}$ respecto de $x$ contiene $\frac{\partial y_{b,k}}{\partial x_b}$
# en la fila $b$. Así, `batch_jacobian` necesita un producto vector-jacobiano por cada
# característica de salida (6), mientras que `jacobian` necesita uno por cada elemento de la
# salida (42).

# %% [markdown] key="batch-jacobian-sum" lang="pt" src="70d7c9c6"
# Por que `batch_jacobian` sai mais barato? Como só os blocos diagonais são diferentes de zero,
# somar a jacobiana sobre um eixo de lote não perde nada. Somada sobre o eixo de lote da *fonte*,
# a linha $b$ guarda só o bloco do exemplo $b$: essa soma *é* a jacobiana em lote. Somada sobre o
# eixo de lote do *alvo*, é o que uma única passagem para trás dá: o gradiente de
# $\sum_b y_{b,k}$ em relação a $x$ contém $\frac{\partial y_{b,k}}{\partial x_b}$ na linha $b$.
# Assim, `batch_jacobian` precisa de um produto vetor-jacobiana por atributo de saída (6), enquanto
# `jacobian` precisa de um por elemento da saída (42).

# %% [markdown] key="batch-jacobian-sum" lang="ru" src="70d7c9c6"
# Почему `batch_jacobian` дешевле? Раз ненулевые только диагональные блоки, суммирование
# якобиана по оси батча ничего не теряет. При суммировании по оси батча *источника* в строке
# $b$ остаётся только блок примера $b$: эта сумма и *есть* якобиан по батчу. При суммировании по
# оси батча *цели* получается ровно то, что даёт один обратный проход: градиент
# $\sum_b y_{b,k}$ по $x$ содержит в строке $b$ производные
# $\frac{\partial y_{b,k}}{\partial x_b}$. Поэтому `batch_jacobian` нужно одно произведение вектора на
# якобиан на каждый выходной признак (6), а `jacobian` — на каждый элемент выхода (42).

# %% key="batch-jacobian-sum-code" tf="random"
j_sum = tf.reduce_sum(j, axis=2)
print("j_sum:", j_sum.shape)
print("max |jb - j_sum| =", tf.reduce_max(tf.abs(jb - j_sum)).numpy())

del tape

with tf.GradientTape() as tape:
    tape.watch(x)
    feature_0 = tf.reduce_sum(layer2(layer1(x))[:, 0])
one_pass = tape.gradient(feature_0, x)
print("max |jb[:, 0, :] - one_pass| =", tf.reduce_max(tf.abs(jb[:, 0, :] - one_pass)).numpy())

# %% [markdown] key="batch-jacobian-mixing" lang="en"
# That argument needs independent examples. An operation that mixes the batch (here, subtracting
# the batch mean, as batch normalization does) fills the off-diagonal blocks. `batch_jacobian`
# still returns something of shape (7, 6, 5), but it is no longer the per-example Jacobian:

# %% [markdown] key="batch-jacobian-mixing" lang="es" src="7f1fada4"
# Ese razonamiento necesita ejemplos independientes. Una operación que mezcla el lote (aquí,
# restar la media del lote, como hace la normalización por lotes) llena los bloques fuera de la
# diagonal. `batch_jacobian` sigue devolviendo un tensor de forma (7, 6, 5), pero ya no es el jacobiano
# de cada ejemplo:

# %% [markdown] key="batch-jacobian-mixing" lang="pt" src="7f1fada4"
# Esse raciocínio exige exemplos independentes. Uma operação que mistura o lote (aqui, subtrair
# a média do lote, como faz a normalização em lote) preenche os blocos fora da diagonal.
# `batch_jacobian` continua devolvendo um tensor de formato (7, 6, 5), mas isso já não é a jacobiana de
# cada exemplo:

# %% [markdown] key="batch-jacobian-mixing" lang="ru" src="7f1fada4"
# Это рассуждение работает только для независимых примеров. Операция, которая смешивает примеры батча
# (здесь — вычитание среднего по батчу, как в батч-нормализации), заполняет внедиагональные
# блоки. `batch_jacobian` по-прежнему возвращает тензор формы (7, 6, 5), но это уже не якобиан
# каждого примера:

# %% key="batch-jacobian-mixing-code" tf="random"
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    z = layer2(layer1(x))
    z = z - tf.reduce_mean(z, axis=0)

diagonal_blocks = tf.einsum("bxby->bxy", tape.jacobian(z, x))
jb = tape.batch_jacobian(z, x)
print(t("l05.batch_shape", shape=jb.shape))
print("max |jb - diagonal_blocks| =", tf.reduce_max(tf.abs(jb - diagonal_blocks)).numpy())
print("max |jb| =", tf.reduce_max(tf.abs(jb)).numpy())
del tape

# %% [markdown] key="batch-jacobian-zero" lang="en"
# Look at `jb` itself: it is not merely wrong, it is exactly zero. `batch_jacobian` uses the
# summing argument above: for each output feature $k$ it runs one backward pass of
# $\sum_b z_{b,k}$. After subtracting the batch mean, that sum is
# $\sum_b (y_{b,k} - \bar{y}_k) = 0$ for every input, so its gradient is exactly zero. In the full
# Jacobian, the diagonal block of example $b$ is $\frac{6}{7}$ of its own Jacobian and each of the
# six off-diagonal blocks in its column is $-\frac{1}{7}$ of it, so the sum cancels. A
# `batch_jacobian` of zeros, or of numbers you cannot explain, is a sign that some operation
# mixes the examples; `jacobian` gives the true answer, at a higher cost.

# %% [markdown] key="batch-jacobian-zero" lang="es" src="2ff3fe7a"
# Mira el propio `jb`: no solo está mal, es exactamente cero. `batch_jacobian` se basa en el
# razonamiento de la suma de antes: para cada característica de salida $k$ hace una pasada hacia
# atrás de $\sum_b z_{b,k}$. Tras restar la media del lote, esa suma vale
# $\sum_b (y_{b,k} - \bar{y}_k) = 0$ para cualquier entrada, así que su gradiente es exactamente
# cero. En el jacobiano completo, el bloque diagonal del ejemplo $b$ es $\frac{6}{7}$ de su propio
# jacobiano y cada uno de los seis bloques fuera de la diagonal de su columna es $-\frac{1}{7}$
# de él, de modo que la suma se anula. Un `batch_jacobian` lleno de ceros, o de números que no
# sabes explicar, indica que alguna operación mezcla los ejemplos; `jacobian` da la respuesta
# correcta, aunque cueste más.

# %% [markdown] key="batch-jacobian-zero" lang="pt" src="2ff3fe7a"
# Olhe o próprio `jb`: ele não está só errado, é exatamente zero. `batch_jacobian` usa o
# raciocínio da soma visto acima: para cada atributo de saída $k$, faz uma passagem para trás de
# $\sum_b z_{b,k}$. Depois de subtrair a média do lote, essa soma vale
# $\sum_b (y_{b,k} - \bar{y}_k) = 0$ para qualquer entrada, e por isso o gradiente dela é
# exatamente zero. Na jacobiana completa, o bloco diagonal do exemplo $b$ é $\frac{6}{7}$ da
# jacobiana dele, e cada um dos seis blocos fora da diagonal na sua coluna é $-\frac{1}{7}$ dela;
# a soma se anula. Um `batch_jacobian` cheio de zeros, ou de números que você não consegue
# explicar, é sinal de que alguma operação mistura os exemplos; `jacobian` dá a resposta certa,
# a um custo maior.

# %% [markdown] key="batch-jacobian-zero" lang="ru" src="2ff3fe7a"
# Посмотрите на сам `jb`: он не просто неверен, он в точности равен нулю. `batch_jacobian`
# опирается на рассуждение о сумме, приведённое выше: для каждого выходного признака $k$ он
# делает один обратный проход для $\sum_b z_{b,k}$. После вычитания среднего по батчу эта сумма
# равна $\sum_b (y_{b,k} - \bar{y}_k) = 0$ при любом входе, поэтому её градиент в точности равен
# нулю. В полном якобиане диагональный блок примера $b$ составляет $\frac{6}{7}$ его собственного
# якобиана, а каждый из шести внедиагональных блоков в том же столбце — $-\frac{1}{7}$ от него,
# так что сумма обращается в ноль. Если `batch_jacobian` состоит из нулей или из чисел, которые
# вы не можете объяснить, значит, какая-то операция смешивает примеры; `jacobian` даёт верный
# ответ, хотя и дороже.

# %% [markdown] key="forward-mode" lang="en"
# ## Forward mode
#
# A backward pass starts from one output and gives the derivatives of that output with respect
# to every input: one *row* of the Jacobian (more precisely, a vector-Jacobian product).
# *Forward mode* goes the other way: you choose a direction $v$ for the inputs (the *tangent*),
# and while the function runs forward, every result carries its own derivative along $v$. At the
# end you get $J v$, a *Jacobian-vector product* (JVP): one *column* of the Jacobian when $v$ is a
# basis vector (all zeros but one 1). `tf.autodiff.ForwardAccumulator(primals, tangents)` does this (the *primals* are
# the points where everything is evaluated), and `acc.jvp(y)` reads it out. For $y = x^3$ at $x = (1, 2)$ along $v = (1, 0)$: $J v = (3 \cdot 1^2, 0) = (3, 0)$.

# %% [markdown] key="forward-mode" lang="es" src="20b1b950"
# ## Modo directo
#
# Una pasada hacia atrás parte de una salida y da las derivadas de esa salida respecto de todas
# las entradas: una *fila* del jacobiano (para ser exactos, un producto vector-jacobiano). El
# *modo directo* (*forward mode*) va en el otro sentido: eliges una dirección $v$ para las
# entradas (la *tangente*), y mientras la función se ejecuta hacia adelante, cada resultado lleva
# consigo su propia derivada en la dirección $v$. Al final obtienes $J v$, un *producto
# jacobiano-vector* (JVP): una *columna* del jacobiano cuando $v$ es un vector $e_j$ de la base
# canónica.
# `tf.autodiff.ForwardAccumulator(primals, tangents)` hace esto (los *primals* son los puntos en
# los que se evalúa), y `acc.jvp(y)` lee el resultado. Para $y = x^3$ en $x = (1, 2)$ a lo largo
# de $v = (1, 0)$: $J v = (3 \cdot 1^2, 0) = (3, 0)$.

# %% [markdown] key="forward-mode" lang="pt" src="20b1b950"
# ## Modo direto
#
# Uma passagem para trás parte de uma saída e dá as derivadas dessa saída em relação a todas as
# entradas: uma *linha* da jacobiana (mais precisamente, um produto vetor-jacobiana). O *modo
# direto* (*forward mode*) vai no sentido contrário: você escolhe uma direção $v$ para as
# entradas (a *tangente*), e enquanto a função roda para a frente, cada resultado carrega a sua
# própria derivada na direção $v$. No fim você obtém $J v$, um *produto jacobiana-vetor* (JVP):
# uma *coluna* da jacobiana quando $v$ é um vetor $e_j$ da base canônica.
# `tf.autodiff.ForwardAccumulator(primals, tangents)` faz isso (os *primals* são os pontos em
# que se avalia), e `acc.jvp(y)` lê o resultado. Para $y = x^3$ em $x = (1, 2)$ ao longo de
# $v = (1, 0)$: $J v = (3 \cdot 1^2, 0) = (3, 0)$.

# %% [markdown] key="forward-mode" lang="ru" src="20b1b950"
# ## Прямой режим
#
# Обратный проход начинается с одного выхода и даёт производные этого выхода по всем входам:
# одну *строку* якобиана (точнее, произведение вектора на якобиан). *Прямой режим* (*forward
# mode*) идёт в другую сторону: вы выбираете направление $v$ для входов (*касательный вектор*,
# *tangent*), и пока функция выполняется в прямом направлении, каждый результат несёт с собой
# свою производную вдоль $v$. В конце получается $J v$ — *произведение якобиана на вектор* (JVP):
# один *столбец* якобиана, если $v$ — базисный вектор $e_j$. Это делает
# `tf.autodiff.ForwardAccumulator(primals, tangents)` (*primals* — точки, в которых всё
# вычисляется), а `acc.jvp(y)` выдаёт результат. Для $y = x^3$ при $x = (1, 2)$ вдоль
# $v = (1, 0)$: $J v = (3 \cdot 1^2, 0) = (3, 0)$.

# %% key="forward-mode-code"
x = tf.constant([1.0, 2.0])
v = tf.constant([1.0, 0.0])

with tf.autodiff.ForwardAccumulator(primals=x, tangents=v) as acc:
    y = x**3

print("acc.jvp(y) =", acc.jvp(y).numpy())

# %% [markdown] key="forward-vs-reverse" lang="en"
# Which mode to use? Reverse mode costs one pass per *output*, forward mode one pass per *input*.
# A loss has one output and millions of inputs, which is why training uses reverse mode. The
# shifted sigmoid above is the opposite case: one input ($\delta$), 201 outputs. `jacobian`
# asked for 201 vector-Jacobian products (one per output, batched into one vectorized pass); a single forward pass gives the same 201 numbers:

# %% [markdown] key="forward-vs-reverse" lang="es" src="f3fa653f"
# ¿Qué modo usar? El modo inverso cuesta una pasada por cada *salida*; el modo directo, una por
# cada *entrada*. Una pérdida tiene una salida y millones de entradas, y por eso para entrenar se
# usa el modo inverso. La sigmoide desplazada de antes es el caso opuesto: una entrada
# ($\delta$) y 201 salidas. `jacobian` pidió 201 productos vector-jacobiano (uno por
# salida, agrupados en una sola pasada vectorizada); una sola pasada hacia
# adelante da los mismos 201 números:

# %% [markdown] key="forward-vs-reverse" lang="pt" src="f3fa653f"
# Qual modo usar? O modo reverso custa uma passagem por *saída*; o modo direto, uma por
# *entrada*. Uma perda tem uma saída e milhões de entradas, e é por isso que o treinamento usa o
# modo reverso. A sigmoide deslocada de antes é o caso oposto: uma entrada ($\delta$) e 201
# saídas. `jacobian` pediu 201 produtos vetor-jacobiana (um por
# saída, agrupados numa única passagem vetorizada); uma única passagem para a frente dá os
# mesmos 201 números:

# %% [markdown] key="forward-vs-reverse" lang="ru" src="f3fa653f"
# Какой режим выбрать? Обратный режим стоит одного прохода на каждый *выход*, прямой — одного
# прохода на каждый *вход*. У функции потерь один выход и миллионы входов, поэтому при обучении
# используют обратный режим. Сдвинутая сигмоида выше — противоположный случай: один вход
# ($\delta$) и 201 выход. Функция `jacobian` запросила 201 произведение вектора на
# якобиан (по одному на выход, собранных в один векторизованный проход), а одного прямого прохода
# достаточно, чтобы получить тот же столбец из 201 числа:

# %% key="forward-vs-reverse-code"
x = tf.linspace(-10.0, 10.0, 201)
with tf.autodiff.ForwardAccumulator(primals=delta, tangents=tf.constant(1.0)) as acc:
    y = tf.nn.sigmoid(x + delta)

column = acc.jvp(y)
print("column.shape:", column.shape, "   max |column - dy_ddelta| =", np.abs(column.numpy() - dy_ddelta.numpy()).max())

# %% [markdown] key="hvp" lang="en"
# ### A Hessian-vector product: forward mode over a backward pass
#
# Many second-order methods only need $H v$, never $H$ itself. Put a `ForwardAccumulator` around
# a tape: the tape computes the gradient $g$, and the accumulator, which watched the whole
# computation, gives the derivative of $g$ along $v$, that is $H v$. It costs a small, fixed
# multiple of one gradient, whatever the size of $H$. For $f(x) = \sum_i x_i^3$ at $x = (1, 2)$,
# $H = \operatorname{diag}(6 x) = \operatorname{diag}(6, 12)$ and, along $v = (1, 0)$,
# $H v = (6, 0)$. The nested tapes' Hessian confirms it:

# %% [markdown] key="hvp" lang="es" src="56abe122"
# ### Un producto hessiano-vector: modo directo sobre una pasada hacia atrás
#
# Muchos métodos de segundo orden solo necesitan $H v$, nunca $H$. Pon un `ForwardAccumulator`
# alrededor de una cinta: la cinta calcula el gradiente $g$, y el acumulador, que vio todo el
# cálculo, da la derivada de $g$ en la dirección $v$, es decir, $H v$. Cuesta un múltiplo pequeño
# y fijo de un gradiente, sea cual sea el tamaño de $H$. Para $f(x) = \sum_i x_i^3$ en
# $x = (1, 2)$, $H = \operatorname{diag}(6 x) = \operatorname{diag}(6, 12)$ y, a lo largo de
# $v = (1, 0)$, $H v = (6, 0)$. El hessiano de las cintas anidadas lo confirma:

# %% [markdown] key="hvp" lang="pt" src="56abe122"
# ### Um produto hessiana-vetor: modo direto sobre uma passagem para trás
#
# Muitos métodos de segunda ordem só precisam de $H v$, nunca da própria $H$. Coloque um
# `ForwardAccumulator` em volta de uma fita: a fita calcula o gradiente $g$, e o acumulador, que
# acompanhou todo o cálculo, dá a derivada de $g$ na direção $v$, ou seja, $H v$. Isso custa um
# múltiplo pequeno e fixo de um gradiente, qualquer que seja o tamanho de $H$. Para
# $f(x) = \sum_i x_i^3$ em $x = (1, 2)$, $H = \operatorname{diag}(6 x) = \operatorname{diag}(6, 12)$
# e, ao longo de $v = (1, 0)$, $H v = (6, 0)$. A hessiana das fitas aninhadas confirma:

# %% [markdown] key="hvp" lang="ru" src="56abe122"
# ### Произведение гессиана на вектор: прямой режим поверх обратного
#
# Многим методам второго порядка нужен только $H v$, а не сам $H$. Поместите `ForwardAccumulator`
# вокруг ленты: лента вычисляет градиент $g$, а аккумулятор, который видел всё вычисление, даёт
# производную $g$ вдоль $v$, то есть $H v$. По стоимости это несколько вычислений градиента, и
# их число не зависит от размера $H$. Для $f(x) = \sum_i x_i^3$ при $x = (1, 2)$ имеем
# $H = \operatorname{diag}(6 x) = \operatorname{diag}(6, 12)$, и вдоль $v = (1, 0)$ получаем
# $H v = (6, 0)$. Гессиан из вложенных лент это подтверждает:

# %% key="hvp-code"
x = tf.constant([1.0, 2.0])
v = tf.constant([1.0, 0.0])

with tf.autodiff.ForwardAccumulator(x, v) as acc:
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x**3)
    g = tape.gradient(y, x)

print("acc.jvp(g) =", acc.jvp(g).numpy())

with tf.GradientTape() as outer:
    outer.watch(x)
    with tf.GradientTape() as inner:
        inner.watch(x)
        y = tf.reduce_sum(x**3)
    g = inner.gradient(y, x)
h = outer.jacobian(g, x)
print("H =", h.numpy().tolist(), "   H v =", tf.linalg.matvec(h, v).numpy())

# %% [markdown] key="scope" lang="en"
# ### What minitape leaves out
#
# Some of TensorFlow is outside minitape's scope, because it differentiates numeric arrays in
# eager mode: string tensors (`tf.strings`), `tf.data` pipelines with their stateful iterators,
# and saving models as SavedModel. <!-- claim: l05.scope --> None of them changes what a tape does: strings and integers
# are never differentiable (their gradient is `None`), and a `tf.data` iterator only hands each
# training step the batch it computes on.

# %% [markdown] key="scope" lang="es" src="2a68a2ee"
# ### Lo que minitape deja fuera
#
# Una parte de TensorFlow queda fuera del alcance de minitape, que deriva arrays numéricos en
# ejecución inmediata (*eager*, operación a operación): los tensores de cadenas (`tf.strings`),
# los *pipelines* de entrada de `tf.data` con sus
# iteradores con estado y el guardado de modelos como SavedModel. <!-- claim: l05.scope --> Ninguno cambia lo que hace una
# cinta: las cadenas y los enteros nunca son diferenciables (su gradiente es `None`), y un
# iterador de `tf.data` solo entrega a cada paso de entrenamiento el lote con el que ese paso
# calcula.

# %% [markdown] key="scope" lang="pt" src="2a68a2ee"
# ### O que o minitape deixa de fora
#
# Uma parte do TensorFlow fica fora do escopo do minitape, que deriva arrays numéricos em
# execução imediata (*eager*, operação por operação): os tensores de strings (`tf.strings`), os pipelines de `tf.data` com os seus
# iteradores com estado e o salvamento de modelos como SavedModel. <!-- claim: l05.scope --> Nenhum deles muda o que uma
# fita faz: strings e inteiros nunca são diferenciáveis (o gradiente deles é `None`), e um
# iterador de `tf.data` só entrega a cada passo de treinamento o lote com que o passo calcula.

# %% [markdown] key="scope" lang="ru" src="2a68a2ee"
# ### Что осталось за пределами minitape
#
# Часть TensorFlow выходит за рамки minitape, который дифференцирует числовые массивы в режиме
# немедленного выполнения (eager): строковые тензоры (`tf.strings`), конвейеры `tf.data` с их итераторами, хранящими
# состояние, и сохранение моделей в формате SavedModel. <!-- claim: l05.scope --> Ни одна из этих частей не меняет того,
# что делает лента: строки и целые числа всегда недифференцируемы (их градиент — `None`), а
# итератор `tf.data` лишь передаёт каждому шагу обучения батч, по которому этот шаг вычисляет
# потери.

# %% [markdown] key="exercises" lang="en"
# ## Exercises
#
# As before: complete each function, run its cell and then the `check` cell below it. The
# hidden checks call your functions at random points (and compare some answers with finite
# differences), so your code has to work in general, not only for the examples. Your answers are compared as in lesson 1: by their value, whatever holds it, within float32's
# tolerance.
# Exercises 4 and 7 are optional: they are checked like the others and add no points.

# %% [markdown] key="exercises" lang="es" src="c0b93203"
# ## Ejercicios
#
# Como antes: completa cada función, ejecuta su celda y después la celda de `check` que hay
# debajo. Las comprobaciones ocultas llaman a tus funciones en puntos aleatorios (y comparan
# algunas respuestas con diferencias finitas), así que tu código tiene que funcionar en general,
# no solo para los ejemplos. Tus respuestas se comparan como en la lección 1: por su valor, sea cual sea el contenedor,
# con la tolerancia de float32.
# Los ejercicios 4 y 7 son opcionales: se comprueban como los demás, pero no suman puntos.

# %% [markdown] key="exercises" lang="pt" src="c0b93203"
# ## Exercícios
#
# Como antes: complete cada função, execute a célula dela e depois a célula de `check` logo
# abaixo. As verificações ocultas chamam as suas funções em pontos aleatórios (e comparam algumas
# respostas com diferenças finitas), então o seu código precisa funcionar em geral, não só nos
# exemplos. As suas respostas são comparadas como na lição 1: pelo valor, seja qual for o recipiente, com
# a tolerância do float32.
# Os exercícios 4 e 7 são opcionais: são verificados como os outros, mas não somam pontos.

# %% [markdown] key="exercises" lang="ru" src="c0b93203"
# ## Упражнения
#
# Как и раньше: допишите каждую функцию, выполните её ячейку, а затем ячейку с `check` под ней.
# Скрытые проверки вызывают ваши функции в случайных точках (и сравнивают некоторые ответы с
# конечными разностями), поэтому код должен работать в общем случае, а не только на примерах. Ответы сравниваются так же, как в уроке 1: по значению, в чём бы оно ни было, с допуском
# float32.
# Упражнения 4 и 7 необязательные: они проверяются, как остальные, но баллов не добавляют.

# %% [markdown] key="ex1" lang="en"
# ### Exercise 1 · A second derivative from nested tapes (2 points)
#
# Write `first_and_second_derivative(x0)`, which returns the list
# $\left[\frac{dy}{dx}, \frac{d^2y}{dx^2}\right]$ for $y = x^2 \sin x$ at $x = x_0$ (a Python
# float), both computed with two nested `tf.GradientTape`s. For example, at $x_0 = 1$:
# $\frac{dy}{dx} = 2 \sin 1 + \cos 1 \approx 2.2232$ and
# $\frac{d^2y}{dx^2} = \sin 1 + 4 \cos 1 \approx 3.0026$.

# %% [markdown] key="ex1" lang="es" src="0ab14263"
# ### Ejercicio 1 · Una segunda derivada con cintas anidadas (2 puntos)
#
# Escribe `first_and_second_derivative(x0)`, que devuelve la lista
# $\left[\frac{dy}{dx}, \frac{d^2y}{dx^2}\right]$ para $y = x^2 \sin x$ en $x = x_0$, donde `x0` es un
# `float` de Python, ambas calculadas con dos `tf.GradientTape` anidadas. Por ejemplo, en $x_0 = 1$:
# $\frac{dy}{dx} = 2 \sin 1 + \cos 1 \approx 2{,}2232$ y
# $\frac{d^2y}{dx^2} = \sin 1 + 4 \cos 1 \approx 3{,}0026$.

# %% [markdown] key="ex1" lang="pt" src="0ab14263"
# ### Exercício 1 · Uma segunda derivada com fitas aninhadas (2 pontos)
#
# Escreva `first_and_second_derivative(x0)`, que devolve a lista
# $\left[\frac{dy}{dx}, \frac{d^2y}{dx^2}\right]$ para $y = x^2 \sin x$ em $x = x_0$, em que `x0` é
# um `float` do Python, ambas calculadas com duas `tf.GradientTape` aninhadas. Por exemplo, em $x_0 = 1$:
# $\frac{dy}{dx} = 2 \sin 1 + \cos 1 \approx 2{,}2232$ e
# $\frac{d^2y}{dx^2} = \sin 1 + 4 \cos 1 \approx 3{,}0026$.

# %% [markdown] key="ex1" lang="ru" src="0ab14263"
# ### Упражнение 1 · Вторая производная с помощью вложенных лент (2 балла)
#
# Напишите функцию `first_and_second_derivative(x0)`, которая возвращает список
# $\left[\frac{dy}{dx}, \frac{d^2y}{dx^2}\right]$ для $y = x^2 \sin x$ в точке $x = x_0$, где `x0` —
# число типа `float`; обе производные вычислите двумя вложенными `tf.GradientTape`. Например, при $x_0 = 1$:
# $\frac{dy}{dx} = 2 \sin 1 + \cos 1 \approx 2{,}2232$ и
# $\frac{d^2y}{dx^2} = \sin 1 + 4 \cos 1 \approx 3{,}0026$.

# %% nbgrader="solution" grade_id="l05_ex1_solution"
def first_and_second_derivative(x0):
    ### BEGIN SOLUTION
    x = tf.Variable(x0)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = x**2 * tf.math.sin(x)
        dy_dx = inner.gradient(y, x)
    d2y_dx2 = outer.gradient(dy_dx, x)
    return [dy_dx, d2y_dx2]
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l05_ex1" points=2
from grader import check
check("l05_ex1")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l05_ex1")
### END HIDDEN TESTS

# %% [markdown] key="ex2" lang="en"
# ### Exercise 2 · The Hessian of a logistic loss (2 points)
#
# Logistic regression with weights $w$ (a `tf.Variable` of shape (n,)), inputs $x$ (shape
# (k, n)) and labels $y_i \in \{-1, +1\}$ (shape (k,)) minimizes
#
# $$L(w) = \frac{1}{k} \sum_i \log\left(1 + e^{-y_i\, x_i \cdot w}\right).$$
#
# Write `logistic_hessian(w, x, y)`, which returns the Hessian of $L$ with respect to $w$, of
# shape (n, n), computed with a nested tape and `jacobian`. `tf.linalg.matvec(x, w)` gives the
# vector of the $x_i \cdot w$, and `tf.math.softplus(z)` computes $\log(1 + e^z)$.

# %% [markdown] key="ex2" lang="es" src="bd83204a"
# ### Ejercicio 2 · El hessiano de una pérdida logística (2 puntos)
#
# La regresión logística con pesos $w$ (una `tf.Variable` de forma (n,)), entradas $x$ (forma
# (k, n)) y etiquetas $y_i \in \{-1, +1\}$ (forma (k,)) minimiza
#
# $$L(w) = \frac{1}{k} \sum_i \log\left(1 + e^{-y_i\, x_i \cdot w}\right).$$
#
# Escribe `logistic_hessian(w, x, y)`, que devuelve el hessiano de $L$ respecto de $w$, de forma
# (n, n), calculado con dos cintas anidadas y `jacobian`. `tf.linalg.matvec(x, w)` da el vector de
# los $x_i \cdot w$, y `tf.math.softplus(z)` calcula $\log(1 + e^z)$.

# %% [markdown] key="ex2" lang="pt" src="bd83204a"
# ### Exercício 2 · A hessiana de uma perda logística (2 pontos)
#
# A regressão logística com pesos $w$ (uma `tf.Variable` de formato (n,)), entradas $x$ (formato
# (k, n)) e rótulos $y_i \in \{-1, +1\}$ (formato (k,)) minimiza
#
# $$L(w) = \frac{1}{k} \sum_i \log\left(1 + e^{-y_i\, x_i \cdot w}\right).$$
#
# Escreva `logistic_hessian(w, x, y)`, que devolve a hessiana de $L$ em relação a $w$, de formato
# (n, n), calculada com duas fitas aninhadas e `jacobian`. `tf.linalg.matvec(x, w)` dá o vetor dos
# $x_i \cdot w$, e `tf.math.softplus(z)` calcula $\log(1 + e^z)$.

# %% [markdown] key="ex2" lang="ru" src="bd83204a"
# ### Упражнение 2 · Гессиан логистической функции потерь (2 балла)
#
# Логистическая регрессия с весами $w$ (`tf.Variable` формы (n,)), входами $x$ (форма (k, n)) и
# метками $y_i \in \{-1, +1\}$ (форма (k,)) минимизирует
#
# $$L(w) = \frac{1}{k} \sum_i \log\left(1 + e^{-y_i\, x_i \cdot w}\right).$$
#
# Напишите функцию `logistic_hessian(w, x, y)`, которая возвращает гессиан $L$ по $w$ формы
# (n, n), вычисленный с помощью вложенных лент и `jacobian`. `tf.linalg.matvec(x, w)` даёт вектор
# из $x_i \cdot w$, а `tf.math.softplus(z)` вычисляет $\log(1 + e^z)$.

# %% nbgrader="solution" grade_id="l05_ex2_solution"
def logistic_hessian(w, x, y):
    ### BEGIN SOLUTION
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            loss = tf.reduce_mean(tf.math.softplus(-y * tf.linalg.matvec(x, w)))
        g = inner.gradient(loss, w)
    return outer.jacobian(g, w)
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l05_ex2" points=2
from grader import check
check("l05_ex2")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l05_ex2")
### END HIDDEN TESTS

# %% [markdown] key="ex3" lang="en"
# ### Exercise 3 · One Newton step (2 points)
#
# Write `newton_step(w, x, y)`, for the same loss: compute the gradient $g$ (shape (n,)) and the
# Hessian $H$ (shape (n, n)) at $w$, solve $H \Delta = g$ with `tf.linalg.solve` (it wants a
# right-hand side of shape (n, 1)), update the variable in place with
# `w.assign_sub(...)` and return `w`. Here $H = \frac{1}{k} x^\top D x$, where the diagonal matrix
# $D$ holds $\sigma(z_i)(1 - \sigma(z_i)) > 0$ ($\sigma$ is the sigmoid, $z_i = y_i\, x_i \cdot w$). The checks use inputs $x$ whose $n$ columns are
# linearly independent (full column rank), so $H$ is positive definite, hence invertible, and no
# $\varepsilon$ is needed. With fewer examples than weights ($k < n$), or a column that repeats
# another, $H$ would be singular.

# %% [markdown] key="ex3" lang="es" src="ae07bd68"
# ### Ejercicio 3 · Un paso de Newton (2 puntos)
#
# Escribe `newton_step(w, x, y)`, para la misma pérdida: calcula el gradiente $g$ (forma (n,)) y
# el hessiano $H$ (forma (n, n)) en $w$, resuelve $H \Delta = g$ con `tf.linalg.solve` (que
# espera un lado derecho de forma (n, 1)), actualiza la variable en su sitio con
# `w.assign_sub(...)` y devuelve `w`. Aquí $H = \frac{1}{k} x^\top D x$, donde la matriz
# diagonal $D$ contiene $\sigma(z_i)(1 - \sigma(z_i)) > 0$ ($\sigma$ es la sigmoide y
# $z_i = y_i\, x_i \cdot w$). Las comprobaciones usan entradas $x$
# cuyas $n$ columnas son linealmente independientes (rango completo por columnas), así que $H$ es
# definida positiva y, por tanto, invertible: no hace falta $\varepsilon$. Con menos ejemplos
# que pesos ($k < n$), o con una columna que repite otra, $H$ sería singular.

# %% [markdown] key="ex3" lang="pt" src="ae07bd68"
# ### Exercício 3 · Um passo de Newton (2 pontos)
#
# Escreva `newton_step(w, x, y)`, para a mesma perda: calcule o gradiente $g$ (formato (n,)) e a
# hessiana $H$ (formato (n, n)) em $w$, resolva $H \Delta = g$ com `tf.linalg.solve` (que espera
# um lado direito de formato (n, 1)), atualize a variável no lugar com `w.assign_sub(...)` e
# devolva `w`. Aqui $H = \frac{1}{k} x^\top D x$, em que a matriz diagonal $D$ contém
# $\sigma(z_i)(1 - \sigma(z_i)) > 0$ ($\sigma$ é a sigmoide e $z_i = y_i\, x_i \cdot w$). As
# verificações usam entradas $x$ cujas $n$ colunas são linearmente independentes ($x$ tem posto
# completo por colunas), então $H$ é definida positiva e, portanto,
# invertível: não é preciso $\varepsilon$. Com menos exemplos que pesos ($k < n$), ou com uma
# coluna que repete outra, $H$ seria singular.

# %% [markdown] key="ex3" lang="ru" src="ae07bd68"
# ### Упражнение 3 · Один шаг метода Ньютона (2 балла)
#
# Напишите функцию `newton_step(w, x, y)` для той же функции потерь: вычислите градиент $g$
# (форма (n,)) и гессиан $H$ (форма (n, n)) в точке $w$, решите $H \Delta = g$ с помощью
# `tf.linalg.solve` (правая часть должна иметь форму (n, 1)), обновите переменную на месте через
# `w.assign_sub(...)` и верните `w`. Здесь $H = \frac{1}{k} x^\top D x$, где на диагонали
# матрицы $D$ стоят числа $\sigma(z_i)(1 - \sigma(z_i)) > 0$ ($\sigma$ — сигмоида,
# $z_i = y_i\, x_i \cdot w$). В проверках столбцы $x$ линейно
# независимы (полный ранг по столбцам), поэтому $H$ положительно определён, а значит, обратим, и
# $\varepsilon$ не нужен. Если примеров меньше, чем весов ($k < n$), или один столбец повторяет
# другой, $H$ вырожден.

# %% nbgrader="solution" grade_id="l05_ex3_solution"
def newton_step(w, x, y):
    ### BEGIN SOLUTION
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            loss = tf.reduce_mean(tf.math.softplus(-y * tf.linalg.matvec(x, w)))
        g = inner.gradient(loss, w)
    h = outer.jacobian(g, w)
    step = tf.linalg.solve(h, tf.reshape(g, [-1, 1]))
    w.assign_sub(tf.reshape(step, [-1]))
    return w
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l05_ex3" points=2
from grader import check
check("l05_ex3")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l05_ex3")
### END HIDDEN TESTS

# %% [markdown] key="ex4" lang="en"
# ### Exercise 4 (optional) · A Hessian-vector product: forward mode over a backward pass (no points)
#
# Write `logistic_hvp(w, x, y, v)`, for the same loss: return $H v$ (shape (n,)), where `v` is a
# tensor of shape (n,), **without** building $H$: a `tf.autodiff.ForwardAccumulator` with primal
# `w` and tangent `v` around a tape that computes the gradient, as in the section on forward mode.
#
# *Optional: `check` and the grader run this exercise's checks and show the result, and it adds
# no points.*

# %% [markdown] key="ex4" lang="es" src="1e49a082"
# ### Ejercicio 4 (opcional) · Un producto hessiano-vector: modo directo sobre una pasada hacia atrás (sin puntos)
#
# Escribe `logistic_hvp(w, x, y, v)`, para la misma pérdida: devuelve $H v$ (forma (n,)), donde
# `v` es un tensor de forma (n,), **sin** construir $H$: un `tf.autodiff.ForwardAccumulator` con
# primal `w` y tangente `v` alrededor de una cinta que calcula el gradiente, como en la sección
# sobre el modo directo.
#
# *Opcional: `check` y el corrector ejecutan las comprobaciones de este ejercicio y muestran el
# resultado, pero no suma puntos.*

# %% [markdown] key="ex4" lang="pt" src="1e49a082"
# ### Exercício 4 (opcional) · Um produto hessiana-vetor: modo direto sobre uma passagem para trás (sem pontos)
#
# Escreva `logistic_hvp(w, x, y, v)`, para a mesma perda: devolva $H v$ (formato (n,)), em que `v`
# é um tensor de formato (n,), **sem** construir $H$: um `tf.autodiff.ForwardAccumulator` com
# primal `w` e tangente `v` em volta de uma fita que calcula o gradiente, como na seção sobre o
# modo direto.
#
# *Opcional: `check` e o corretor executam as verificações deste exercício e mostram o
# resultado, mas ele não soma pontos.*

# %% [markdown] key="ex4" lang="ru" src="1e49a082"
# ### Упражнение 4 (необязательное) · Произведение гессиана на вектор: прямой режим поверх обратного (без баллов)
#
# Напишите функцию `logistic_hvp(w, x, y, v)` для той же функции потерь: верните $H v$ (форма
# (n,)), где `v` — тензор формы (n,), **не** строя $H$: используйте `tf.autodiff.ForwardAccumulator`
# с точкой (*primal*) `w` и касательным вектором `v` вокруг ленты, которая вычисляет градиент, как
# в разделе о прямом режиме.
#
# *Необязательное: `check` и система проверки выполняют проверки этого упражнения и показывают
# результат, но баллов оно не добавляет.*

# %% nbgrader="solution" grade_id="l05_ex4_solution"
def logistic_hvp(w, x, y, v):
    ### BEGIN SOLUTION
    with tf.autodiff.ForwardAccumulator(w, v) as acc:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.math.softplus(-y * tf.linalg.matvec(x, w)))
        g = tape.gradient(loss, w)
    return acc.jvp(g)
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l05_ex4" points=0
from grader import check
check("l05_ex4")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l05_ex4")
### END HIDDEN TESTS

# %% [markdown] key="ex5" lang="en"
# ### Exercise 5 · Per-example Jacobians (2 points)
#
# Write `per_example_jacobians(w, x)`. `w` is a `tf.Variable` of shape (n, m) and `x` a tensor
# of shape (b, n) holding b independent examples. For $y = \tanh(x w)$, of shape (b, m), return
# the Jacobian of each example's output with respect to its own input,
# $\frac{\partial y_i}{\partial x_i}$, as one tensor of shape (b, m, n), computed with
# `tape.batch_jacobian`. `x` is a tensor: the tape has to be told to watch it.

# %% [markdown] key="ex5" lang="es" src="3af0d472"
# ### Ejercicio 5 · Jacobianos de cada ejemplo (2 puntos)
#
# Escribe `per_example_jacobians(w, x)`. `w` es una `tf.Variable` de forma (n, m) y `x` un
# tensor de forma (b, n) con b ejemplos independientes. Para $y = \tanh(x w)$, de forma (b, m),
# devuelve el jacobiano de la salida de cada ejemplo respecto de su propia entrada,
# $\frac{\partial y_i}{\partial x_i}$, como un solo tensor de forma (b, m, n), calculado con
# `tape.batch_jacobian`. `x` es un tensor: hay que decirle a la cinta que lo observe.

# %% [markdown] key="ex5" lang="pt" src="3af0d472"
# ### Exercício 5 · Jacobianas de cada exemplo (2 pontos)
#
# Escreva `per_example_jacobians(w, x)`. `w` é uma `tf.Variable` de formato (n, m) e `x` um
# tensor de formato (b, n) com b exemplos independentes. Para $y = \tanh(x w)$, de formato
# (b, m), devolva a jacobiana da saída de cada exemplo em relação à sua própria entrada,
# $\frac{\partial y_i}{\partial x_i}$, como um único tensor de formato (b, m, n), calculado
# com `tape.batch_jacobian`. `x` é um tensor: é preciso dizer à fita que o observe.

# %% [markdown] key="ex5" lang="ru" src="3af0d472"
# ### Упражнение 5 · Якобианы отдельных примеров (2 балла)
#
# Напишите функцию `per_example_jacobians(w, x)`. `w` — `tf.Variable` формы (n, m), `x` —
# тензор формы (b, n) из b независимых примеров. Для $y = \tanh(x w)$ формы (b, m) верните
# якобиан выхода каждого примера по его собственному входу,
# $\frac{\partial y_i}{\partial x_i}$, одним тензором формы (b, m, n), вычисленным с помощью
# `tape.batch_jacobian`. `x` — тензор: ленте нужно указать, что его надо отслеживать.

# %% nbgrader="solution" grade_id="l05_ex5_solution"
def per_example_jacobians(w, x):
    ### BEGIN SOLUTION
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.math.tanh(tf.matmul(x, w))
    return tape.batch_jacobian(y, x)
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l05_ex5" points=2
from grader import check
check("l05_ex5")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l05_ex5")
### END HIDDEN TESTS

# %% [markdown] key="ex6" lang="en"
# ### Exercise 6 · A vector-Jacobian product (2 points)
#
# Write `layer_vjp(w, x, u)`. `w` is a `tf.Variable` of shape (n, m), `x` a tensor of shape
# (b, n) and `u` a tensor of shape (b, m). For $y = \tanh(x w)$, return the list
# $[u^\top \frac{\partial y}{\partial x}, u^\top \frac{\partial y}{\partial w}]$, of shapes
# (b, n) and (n, m), from one `gradient` call with `output_gradients=u`, without computing a
# Jacobian.

# %% [markdown] key="ex6" lang="es" src="4bec7c10"
# ### Ejercicio 6 · Un producto vector-jacobiano (2 puntos)
#
# Escribe `layer_vjp(w, x, u)`. `w` es una `tf.Variable` de forma (n, m), `x` un tensor de forma
# (b, n) y `u` un tensor de forma (b, m). Para $y = \tanh(x w)$, devuelve la lista
# $[u^\top \frac{\partial y}{\partial x}, u^\top \frac{\partial y}{\partial w}]$, de formas
# (b, n) y (n, m), con una sola llamada a `gradient` con `output_gradients=u`, sin calcular
# ningún jacobiano.

# %% [markdown] key="ex6" lang="pt" src="4bec7c10"
# ### Exercício 6 · Um produto vetor-jacobiana (2 pontos)
#
# Escreva `layer_vjp(w, x, u)`. `w` é uma `tf.Variable` de formato (n, m), `x` um tensor de
# formato (b, n) e `u` um tensor de formato (b, m). Para $y = \tanh(x w)$, devolva a lista
# $[u^\top \frac{\partial y}{\partial x}, u^\top \frac{\partial y}{\partial w}]$, de formatos
# (b, n) e (n, m), com uma única chamada a `gradient` com `output_gradients=u`, sem calcular
# nenhuma jacobiana.

# %% [markdown] key="ex6" lang="ru" src="4bec7c10"
# ### Упражнение 6 · Произведение вектора на якобиан (2 балла)
#
# Напишите функцию `layer_vjp(w, x, u)`. `w` — `tf.Variable` формы (n, m), `x` — тензор формы
# (b, n), `u` — тензор формы (b, m). Для $y = \tanh(x w)$ верните список
# $[u^\top \frac{\partial y}{\partial x}, u^\top \frac{\partial y}{\partial w}]$ форм (b, n)
# и (n, m), вычисленный одним вызовом `gradient` с `output_gradients=u`, без вычисления
# якобиана.

# %% nbgrader="solution" grade_id="l05_ex6_solution"
def layer_vjp(w, x, u):
    ### BEGIN SOLUTION
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.math.tanh(tf.matmul(x, w))
    return tape.gradient(y, [x, w], output_gradients=u)
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l05_ex6" points=2
from grader import check
check("l05_ex6")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l05_ex6")
### END HIDDEN TESTS

# %% [markdown] key="ex7" lang="en"
# ### Exercise 7 (optional) · The Jacobians of a softmax with temperature (no points)
#
# A *temperature* $T > 0$ flattens or sharpens a softmax: $s = \operatorname{softmax}(z / T)$ (a
# large $T$ brings the probabilities closer together, a small one pushes them apart). Write
# `tempered_softmax_jacobians(z, temperature)`: `z` is a tensor of shape (n,) and `temperature` a
# `tf.Variable` of shape (). Return the list
# $\left[\frac{\partial s}{\partial z}, \frac{\partial s}{\partial T}\right]$ of the Jacobians of
# $s$ with respect to both, of shapes (n, n) and (n,). Before you run it, predict, then check on
# your answer: is $\frac{\partial s}{\partial z}$ symmetric? What do its rows add up to, what do
# its columns add up to, and why? What do the $n$ entries of $\frac{\partial s}{\partial T}$ add up
# to, and so what would `tape.gradient(s, temperature)` return?
#
# *Optional: `check` and the grader run this exercise's checks and show the result, and it adds
# no points.*

# %% [markdown] key="ex7" lang="es" src="651346e9"
# ### Ejercicio 7 (opcional) · Los jacobianos de una softmax con temperatura (sin puntos)
#
# Una *temperatura* $T > 0$ suaviza o afila una softmax: $s = \operatorname{softmax}(z / T)$ (una
# $T$ grande acerca las probabilidades entre sí; una pequeña las separa). Escribe
# `tempered_softmax_jacobians(z, temperature)`: `z` es un tensor de forma (n,) y `temperature`,
# una `tf.Variable` de forma (). Devuelve la lista
# $\left[\frac{\partial s}{\partial z}, \frac{\partial s}{\partial T}\right]$ con los jacobianos de
# $s$ respecto de ambas, de formas (n, n) y (n,). Antes de ejecutarlo, predice y comprueba después
# en tu respuesta: ¿es simétrico $\frac{\partial s}{\partial z}$? ¿Cuánto suman sus filas, cuánto
# sus columnas, y por qué? ¿Cuánto suman las $n$ entradas de $\frac{\partial s}{\partial T}$, y qué
# devolvería entonces `tape.gradient(s, temperature)`?
#
# *Opcional: `check` y el corrector ejecutan las comprobaciones de este ejercicio y muestran el
# resultado, pero no suma puntos.*

# %% [markdown] key="ex7" lang="pt" src="651346e9"
# ### Exercício 7 (opcional) · As jacobianas de uma softmax com temperatura (sem pontos)
#
# Uma *temperatura* $T > 0$ suaviza ou aguça uma softmax: $s = \operatorname{softmax}(z / T)$ (uma
# $T$ grande aproxima as probabilidades umas das outras; uma pequena as afasta). Escreva
# `tempered_softmax_jacobians(z, temperature)`: `z` é um tensor de formato (n,) e `temperature`,
# uma `tf.Variable` de formato (). Devolva a lista
# $\left[\frac{\partial s}{\partial z}, \frac{\partial s}{\partial T}\right]$ com as jacobianas de
# $s$ em relação às duas, de formatos (n, n) e (n,). Antes de rodar, preveja e depois confira na
# sua resposta: $\frac{\partial s}{\partial z}$ é simétrica? Quanto somam as linhas dela, quanto
# somam as colunas, e por quê? Quanto somam as $n$ entradas de $\frac{\partial s}{\partial T}$, e
# então o que `tape.gradient(s, temperature)` devolveria?
#
# *Opcional: `check` e o corretor executam as verificações deste exercício e mostram o
# resultado, mas ele não soma pontos.*

# %% [markdown] key="ex7" lang="ru" src="651346e9"
# ### Упражнение 7 (необязательное) · Якобианы softmax с температурой (без баллов)
#
# *Температура* $T > 0$ сглаживает или заостряет softmax: $s = \operatorname{softmax}(z / T)$
# (большая $T$ сближает вероятности, маленькая — разводит их). Напишите функцию
# `tempered_softmax_jacobians(z, temperature)`: `z` — тензор формы (n,), `temperature` —
# `tf.Variable` формы (). Верните список
# $\left[\frac{\partial s}{\partial z}, \frac{\partial s}{\partial T}\right]$ из якобианов $s$ по
# обоим источникам, форм (n, n) и (n,). Прежде чем запускать, предскажите, а потом проверьте на
# своём ответе: симметрична ли матрица $\frac{\partial s}{\partial z}$? Чему равны суммы её строк,
# чему — суммы столбцов, и почему? Чему равна сумма $n$ элементов $\frac{\partial s}{\partial T}$ и
# что, следовательно, вернёт `tape.gradient(s, temperature)`?
#
# *Необязательное: `check` и система проверки выполняют проверки этого упражнения и показывают
# результат, но баллов оно не добавляет.*

# %% nbgrader="solution" grade_id="l05_ex7_solution"
def tempered_softmax_jacobians(z, temperature):
    ### BEGIN SOLUTION
    with tf.GradientTape() as tape:
        tape.watch(z)
        s = tf.nn.softmax(z / temperature)
    return tape.jacobian(s, [z, temperature])
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l05_ex7" points=0
from grader import check
check("l05_ex7")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l05_ex7")
### END HIDDEN TESTS

# %% [markdown] key="summary" lang="en"
# ## Summary
#
# - Tapes record independently; a `gradient` computed under an outer tape is recorded by it, so
#   nested tapes give second derivatives, and gradients can be part of a loss.
# - `jacobian(target, source)` has shape `target.shape + source.shape`, at one backward pass per
#   target element; `gradient(y, x, output_gradients=u)` gives $u^\top J$ in one pass. The
#   Hessian is the Jacobian of the gradient; a Newton step solves $H \Delta = g$.
# - For independent examples, `batch_jacobian` gives the per-example Jacobians at one pass per
#   output feature.
# - `tf.autodiff.ForwardAccumulator` computes Jacobian-vector products in forward mode, one pass
#   per input direction; around a tape it gives Hessian-vector products.
#
# Next lesson: all of this at work, training a linear regression and a small neural network by
# gradient descent.

# %% [markdown] key="summary" lang="es" src="d7bb2e06"
# ## Resumen
#
# - Las cintas graban de forma independiente; un `gradient` calculado bajo una cinta exterior
#   queda grabado en ella, así que las cintas anidadas dan segundas derivadas y los gradientes
#   pueden formar parte de una pérdida.
# - `jacobian(target, source)` tiene forma `target.shape + source.shape`, a razón de una pasada
#   hacia atrás por elemento del objetivo; `gradient(y, x, output_gradients=u)` da $u^\top J$ en
#   una pasada. El hessiano es el jacobiano del gradiente; un paso de Newton resuelve
#   $H \Delta = g$.
# - Con ejemplos independientes, `batch_jacobian` da los jacobianos de cada ejemplo con una
#   pasada por característica de salida.
# - `tf.autodiff.ForwardAccumulator` calcula productos jacobiano-vector en modo directo, una
#   pasada por dirección de entrada; alrededor de una cinta, da productos hessiano-vector.
#
# En la próxima lección: todo esto en acción, entrenando por descenso del gradiente una regresión
# lineal y una pequeña red neuronal.

# %% [markdown] key="summary" lang="pt" src="d7bb2e06"
# ## Resumo
#
# - As fitas gravam de forma independente; um `gradient` calculado sob uma fita externa é gravado
#   por ela, então fitas aninhadas dão segundas derivadas e gradientes podem fazer parte de uma
#   perda.
# - `jacobian(target, source)` tem formato `target.shape + source.shape`, ao custo de uma
#   passagem para trás por elemento do alvo; `gradient(y, x, output_gradients=u)` dá $u^\top J$
#   numa passagem. A hessiana é a jacobiana do gradiente; um passo de Newton resolve
#   $H \Delta = g$.
# - Com exemplos independentes, `batch_jacobian` dá as jacobianas de cada exemplo com uma
#   passagem por atributo de saída.
# - `tf.autodiff.ForwardAccumulator` calcula produtos jacobiana-vetor no modo direto, uma
#   passagem por direção de entrada; em volta de uma fita, dá produtos hessiana-vetor.
#
# Na próxima lição: tudo isso em ação, treinando por descida do gradiente uma regressão linear e
# uma pequena rede neural.

# %% [markdown] key="summary" lang="ru" src="d7bb2e06"
# ## Итоги
#
# - Ленты записывают независимо друг от друга; `gradient`, вычисленный под внешней лентой,
#   записывается на неё, поэтому вложенные ленты дают вторые производные, а градиенты могут
#   входить в функцию потерь.
# - `jacobian(target, source)` имеет форму `target.shape + source.shape` и стоит одного обратного
#   прохода на каждый элемент цели; `gradient(y, x, output_gradients=u)` даёт $u^\top J$ за один
#   проход. Гессиан — это якобиан градиента; шаг метода Ньютона решает $H \Delta = g$.
# - Для независимых примеров `batch_jacobian` даёт якобианы отдельных примеров за один проход на
#   каждый выходной признак.
# - `tf.autodiff.ForwardAccumulator` вычисляет произведения якобиана на вектор в прямом режиме,
#   по одному проходу на направление во входном пространстве; вокруг ленты он даёт произведения
#   гессиана на вектор.
#
# В следующем уроке: всё это в деле — обучение линейной регрессии и небольшой нейронной сети
# градиентным спуском.

# %% [markdown] key="reflect" lang="en" questions=true
# 1. A Jacobian costs one backward pass per output element; forward mode costs one pass per input
#    direction. For a loss with one output and a million weights, and for a function with a
#    million outputs and three inputs, which would you use, and why?
# 2. `batch_jacobian` returned zeros without complaint once the examples were mixed. Before you
#    trust a method that relies on an assumption about your data, what would you check?

# %% [markdown] key="reflect" lang="es" src="1b2deebe"
# 1. Un jacobiano cuesta una pasada hacia atrás por elemento de la salida; el modo directo, una
#    pasada por dirección de entrada. Para una pérdida con una salida y un millón de pesos, y para
#    una función con un millón de salidas y tres entradas, ¿qué usarías y por qué?
# 2. `batch_jacobian` devolvió ceros sin protestar en cuanto los ejemplos se mezclaron. Antes de
#    fiarte de un método que se apoya en una suposición sobre tus datos, ¿qué comprobarías?

# %% [markdown] key="reflect" lang="pt" src="1b2deebe"
# 1. Uma jacobiana custa uma passagem para trás por elemento da saída; o modo direto, uma passagem
#    por direção de entrada. Para uma perda com uma saída e um milhão de pesos, e para uma função
#    com um milhão de saídas e três entradas, o que você usaria, e por quê?
# 2. `batch_jacobian` devolveu zeros sem reclamar assim que os exemplos foram misturados. Antes de
#    confiar num método que depende de uma suposição sobre os seus dados, o que você verificaria?

# %% [markdown] key="reflect" lang="ru" src="1b2deebe"
# 1. Якобиан стоит одного обратного прохода на каждый элемент выхода, прямой режим — одного
#    прохода на каждое направление входа. Что бы вы выбрали для функции потерь с одним выходом и
#    миллионом весов, а что — для функции с миллионом выходов и тремя входами? Почему?
# 2. `batch_jacobian` без всяких жалоб вернул нули, как только примеры смешались. Что бы вы
#    проверили, прежде чем доверять методу, который опирается на предположение о ваших данных?
