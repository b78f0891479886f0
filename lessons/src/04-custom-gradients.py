# ---
# jupyter:
#   minitape:
#     lesson: 04-custom-gradients
# ---

# %% [markdown] key="title" lang="en"
# # Lesson 4 · Custom gradients, higher orders and Jacobians
#
# A gradient tape can do much more than give you the gradient of a loss. You can decide what it
# records, replace the gradient of any function with your own, differentiate a gradient again,
# and keep every output's derivatives apart instead of adding them up. With these tools you will
# build a Hessian and take a step of Newton's method.
#
# In this lesson you will learn:
#
# - how to pause or restart a recording (`stop_recording`, `reset`) and how to cut one path
#   (`tf.stop_gradient`);
# - how to write your own gradient with `tf.custom_gradient`: for an operation that has none,
#   to clip a gradient, or to make it numerically stable;
# - how several tapes, and tapes inside tapes, give you second derivatives;
# - what a Jacobian is, how `jacobian` and `batch_jacobian` compute it, and how a Hessian and a
#   Newton step follow from it;
# - what forward mode (`tf.autodiff.ForwardAccumulator`) computes, and a Hessian-vector product
#   without building the Hessian.

# %% [markdown] key="title" lang="es" src="3bd2ad74"
# # Lección 4 · Gradientes personalizados, órdenes superiores y jacobianos
#
# Una cinta de gradientes sirve para mucho más que para darte el gradiente de una pérdida. Puedes
# decidir qué graba, sustituir el gradiente de cualquier función por uno tuyo, volver a derivar
# un gradiente y mantener separadas las derivadas de cada salida en lugar de sumarlas. Con estas
# herramientas construirás un hessiano y darás un paso del método de Newton.
#
# En esta lección aprenderás:
#
# - cómo pausar o reiniciar una grabación (`stop_recording`, `reset`) y cómo cortar un camino
#   concreto (`tf.stop_gradient`);
# - cómo escribir tu propio gradiente con `tf.custom_gradient`: para una operación que no lo
#   tiene, para recortar un gradiente o para hacerlo numéricamente estable;
# - cómo varias cintas, y cintas dentro de cintas, te dan segundas derivadas;
# - qué es un jacobiano, cómo lo calculan `jacobian` y `batch_jacobian`, y cómo se obtienen a
#   partir de él un hessiano y un paso de Newton;
# - qué calcula el modo directo (`tf.autodiff.ForwardAccumulator`) y cómo obtener un producto
#   hessiano-vector sin construir el hessiano.

# %% [markdown] key="title" lang="pt" src="3bd2ad74"
# # Lição 4 · Gradientes personalizados, ordens superiores e jacobianas
#
# Uma fita de gradientes serve para muito mais do que dar o gradiente de uma perda. Você pode
# decidir o que ela grava, trocar o gradiente de qualquer função por um seu, derivar de novo um
# gradiente e manter separadas as derivadas de cada saída em vez de somá-las. Com essas
# ferramentas você vai construir uma hessiana e dar um passo do método de Newton.
#
# Nesta lição você vai aprender:
#
# - como pausar ou reiniciar uma gravação (`stop_recording`, `reset`) e como cortar um caminho
#   específico (`tf.stop_gradient`);
# - como escrever o seu próprio gradiente com `tf.custom_gradient`: para uma operação que não
#   tem gradiente, para recortar um gradiente ou para torná-lo numericamente estável;
# - como várias fitas, e fitas dentro de fitas, dão segundas derivadas;
# - o que é uma jacobiana, como `jacobian` e `batch_jacobian` a calculam, e como uma hessiana e
#   um passo de Newton saem dele;
# - o que o modo direto (`tf.autodiff.ForwardAccumulator`) calcula, e como obter um produto
#   hessiana-vetor sem construir a hessiana.

# %% [markdown] key="title" lang="ru" src="3bd2ad74"
# # Урок 4 · Собственные градиенты, высшие порядки и якобианы
#
# Градиентная лента умеет гораздо больше, чем выдавать градиент функции потерь. Можно решать,
# что она записывает, заменять градиент любой функции своим, дифференцировать градиент ещё раз
# и держать производные каждого выхода по отдельности, а не складывать их. С этими
# инструментами вы построите гессиан и сделаете шаг метода Ньютона.
#
# В этом уроке вы узнаете:
#
# - как приостановить или начать заново запись (`stop_recording`, `reset`) и как перерезать
#   один конкретный путь (`tf.stop_gradient`);
# - как написать собственный градиент с `tf.custom_gradient`: для операции, у которой его нет,
#   чтобы обрезать градиент или сделать его вычисление численно устойчивым;
# - как несколько лент, а также ленты внутри лент, дают вторые производные;
# - что такое якобиан, как его вычисляют `jacobian` и `batch_jacobian` и как из него получаются
#   гессиан и шаг метода Ньютона;
# - что вычисляет прямой режим (`tf.autodiff.ForwardAccumulator`) и как получить произведение
#   гессиана на вектор, не строя сам гессиан.

# %% key="setup-code"
import io

import ipywidgets as widgets
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Circle

import minitape as tf
from lessons.i18n import t

tf.random.set_seed(4)

# %% [markdown] key="stop-recording" lang="en"
# ## Pausing the recording
#
# Inside `with tape.stop_recording():` the tape records nothing; it starts again when the block
# ends. An operation that is not recorded leaves no path back to its inputs, so here $z$
# depends on $y$ only through an unrecorded step: $\frac{\partial z}{\partial x} = 2x = 4$ and
# the gradient for $y$ is `None`.

# %% [markdown] key="stop-recording" lang="es" src="7664d8f3"
# ## Pausar la grabación
#
# Dentro de `with tape.stop_recording():` la cinta no graba nada; vuelve a grabar cuando termina
# el bloque. Una operación que no se grabó no deja ningún camino de vuelta hasta sus entradas:
# aquí $z$ depende de $y$ solo a través de un paso sin grabar, así que
# $\frac{\partial z}{\partial x} = 2x = 4$ y el gradiente para $y$ es `None`.

# %% [markdown] key="stop-recording" lang="pt" src="7664d8f3"
# ## Pausar a gravação
#
# Dentro de `with tape.stop_recording():` a fita não grava nada; ela volta a gravar quando o
# bloco termina. Uma operação que não foi gravada não deixa nenhum caminho de volta até as suas
# entradas: aqui $z$ depende de $y$ só por meio de um passo não gravado, então
# $\frac{\partial z}{\partial x} = 2x = 4$ e o gradiente para $y$ é `None`.

# %% [markdown] key="stop-recording" lang="ru" src="7664d8f3"
# ## Пауза в записи
#
# Внутри `with tape.stop_recording():` лента ничего не записывает; запись возобновляется, когда
# блок заканчивается. Незаписанная операция не оставляет пути назад к своим входам: здесь $z$
# зависит от $y$ только через незаписанный шаг, поэтому $\frac{\partial z}{\partial x} = 2x = 4$,
# а градиент по $y$ равен `None`.

# %% key="stop-recording-code"
x = tf.Variable(2.0)
y = tf.Variable(3.0)

with tf.GradientTape() as tape:
    x_sq = x * x
    with tape.stop_recording():
        y_sq = y * y
    z = x_sq + y_sq

print(tape.gradient(z, {"x": x, "y": y}))

# %% [markdown] key="stop-recording-use" lang="en"
# What is it for? To compute something in the middle of a recording that you do not want to
# differentiate later, and not pay for recording it: a value to log, or a gradient you only want
# to look at. A persistent tape can even answer a question while it is still recording; inside
# `stop_recording` that gradient computation is not recorded on the tape itself. At $y = 3$,
# $\frac{d(y^2)}{dy} = 6$:

# %% [markdown] key="stop-recording-use" lang="es" src="fe157663"
# ¿Para qué sirve? Para calcular algo en mitad de una grabación que no vas a derivar después,
# sin pagar el coste de grabarlo: un valor que quieres registrar o un gradiente que solo quieres
# mirar. Una cinta persistente puede incluso responder a una pregunta mientras todavía está
# grabando; dentro de `stop_recording`, ese cálculo del gradiente no queda grabado en la propia
# cinta. En $y = 3$, $\frac{d(y^2)}{dy} = 6$:

# %% [markdown] key="stop-recording-use" lang="pt" src="fe157663"
# Para que serve? Para calcular algo no meio de uma gravação que você não vai derivar depois,
# sem pagar o custo de gravá-lo: um valor para registrar em log ou um gradiente que você só quer
# olhar. Uma fita persistente pode até responder a uma pergunta enquanto ainda está gravando;
# dentro de `stop_recording`, esse cálculo do gradiente não fica gravado na própria fita. Em
# $y = 3$, $\frac{d(y^2)}{dy} = 6$:

# %% [markdown] key="stop-recording-use" lang="ru" src="fe157663"
# Зачем это нужно? Чтобы посреди записи вычислить что-то, что вы не собираетесь потом
# дифференцировать, и не платить за его запись: значение для журнала или градиент, на который
# хочется просто посмотреть. Персистентная лента может даже ответить на вопрос, пока она ещё
# записывает; внутри `stop_recording` само вычисление этого градиента на ленту не попадает. При
# $y = 3$ имеем $\frac{d(y^2)}{dy} = 6$:

# %% key="stop-recording-use-code"
with tf.GradientTape(persistent=True) as tape:
    y_sq = y * y
    with tape.stop_recording():
        print("d(y_sq)/dy =", tape.gradient(y_sq, y).numpy())
    z = x + y_sq

print("dz/dx =", tape.gradient(z, x).numpy())
del tape

# %% [markdown] key="reset" lang="en"
# ## Starting over: `reset`
#
# `tape.reset()` forgets everything the tape recorded so far and goes on recording from that
# point. Leaving the `with` block and opening a new tape is usually easier to read; `reset` is
# for when leaving the block is awkward, for instance in the middle of a loop. Here `y_sq` was
# computed before the reset, so the tape no longer knows where it came from:

# %% [markdown] key="reset" lang="es" src="12595935"
# ## Empezar de nuevo: `reset`
#
# `tape.reset()` olvida todo lo que la cinta grabó hasta ese momento y sigue grabando a partir de
# ahí. Salir del bloque `with` y abrir una cinta nueva suele leerse mejor; `reset` es para cuando
# salir del bloque resulta incómodo, por ejemplo en mitad de un bucle. Aquí `y_sq` se calculó
# antes del reinicio, así que la cinta ya no sabe de dónde salió:

# %% [markdown] key="reset" lang="pt" src="12595935"
# ## Começar de novo: `reset`
#
# `tape.reset()` esquece tudo o que a fita gravou até ali e continua gravando a partir desse
# ponto. Sair do bloco `with` e abrir uma fita nova costuma ser mais fácil de ler; `reset` é para
# quando sair do bloco é complicado, por exemplo no meio de um laço. Aqui `y_sq` foi calculado
# antes do reinício, então a fita já não sabe de onde ele veio:

# %% [markdown] key="reset" lang="ru" src="12595935"
# ## Начать заново: `reset`
#
# `tape.reset()` забывает всё, что лента записала к этому моменту, и продолжает запись с этого
# места. Обычно понятнее выйти из блока `with` и открыть новую ленту; `reset` нужен, когда выйти
# из блока неудобно, например посреди цикла. Здесь `y_sq` вычислен до сброса, поэтому лента уже
# не знает, откуда он взялся:

# %% key="reset-code"
reset = True

with tf.GradientTape() as tape:
    y_sq = y * y
    if reset:
        tape.reset()
    z = x * x + y_sq

print(tape.gradient(z, {"x": x, "y": y}))

# %% [markdown] key="stop-gradient" lang="en"
# ## Cutting one path: `tf.stop_gradient`
#
# `tf.stop_gradient(value)` returns the same value, but as far as gradients are concerned it is
# a constant: nothing flows back through it. It is much narrower than `stop_recording`: it cuts
# one path, every other operation is still recorded, and you do not even need access to the tape.

# %% [markdown] key="stop-gradient" lang="es" src="5fae2406"
# ## Cortar un solo camino: `tf.stop_gradient`
#
# `tf.stop_gradient(value)` devuelve el mismo valor, pero, a efectos de gradientes, es una
# constante: nada fluye hacia atrás a través de él. Es mucho más preciso que `stop_recording`:
# corta un solo camino, todas las demás operaciones se siguen grabando y ni siquiera necesitas
# acceso a la cinta.

# %% [markdown] key="stop-gradient" lang="pt" src="5fae2406"
# ## Cortar um único caminho: `tf.stop_gradient`
#
# `tf.stop_gradient(value)` devolve o mesmo valor, mas, para efeito de gradientes, ele é uma
# constante: nada volta através dele. É muito mais pontual que `stop_recording`: corta um único
# caminho, todas as outras operações continuam sendo gravadas e você nem precisa ter acesso à
# fita.

# %% [markdown] key="stop-gradient" lang="ru" src="5fae2406"
# ## Перерезать один путь: `tf.stop_gradient`
#
# `tf.stop_gradient(value)` возвращает то же значение, но для градиентов оно становится
# константой: обратно через него ничего не проходит. Это гораздо более точечный инструмент,
# чем `stop_recording`: он перерезает один путь, все остальные операции по-прежнему
# записываются, и доступ к ленте даже не нужен.

# %% key="stop-gradient-code"
with tf.GradientTape() as tape:
    y_sq = y**2
    z = x**2 + tf.stop_gradient(y_sq)

print(tape.gradient(z, {"x": x, "y": y}))

# %% [markdown] key="straight-through" lang="en"
# A classic use: forward one value, backward the gradient of another. `tf.round` has no useful
# gradient (the tape gives `None`), but the expression `x + tf.stop_gradient(tf.round(x) - x)`
# *equals* `round(x)` while its gradient is that of `x`, that is $1$. This "straight-through"
# trick is how networks with rounded (quantized) weights are trained.

# %% [markdown] key="straight-through" lang="es" src="1671348a"
# Un uso clásico: hacia adelante, un valor; hacia atrás, el gradiente de otro. `tf.round` no
# tiene un gradiente útil (la cinta da `None`), pero la expresión
# `x + tf.stop_gradient(tf.round(x) - x)` *vale* `round(x)` y, sin embargo, su gradiente es el de
# `x`, es decir, $1$. Este truco, llamado *straight-through*, es el que permite entrenar redes con
# pesos redondeados (cuantizados).

# %% [markdown] key="straight-through" lang="pt" src="1671348a"
# Um uso clássico: para a frente, um valor; para trás, o gradiente de outro. `tf.round` não tem
# um gradiente útil (a fita dá `None`), mas a expressão `x + tf.stop_gradient(tf.round(x) - x)`
# *vale* `round(x)` e, ainda assim, o seu gradiente é o de `x`, ou seja, $1$. Esse truque,
# chamado *straight-through*, é o que permite treinar redes com pesos arredondados
# (quantizados).

# %% [markdown] key="straight-through" lang="ru" src="1671348a"
# Классический пример: на прямом проходе одно значение, на обратном — градиент другого. У
# `tf.round` нет полезного градиента (лента даёт `None`), но выражение
# `x + tf.stop_gradient(tf.round(x) - x)` *равно* `round(x)`, а его градиент — это градиент `x`,
# то есть $1$. Этот приём, *straight-through* («насквозь»), позволяет обучать сети с округлёнными
# (квантованными) весами.

# %% key="straight-through-code"
x = tf.Variable(2.7)

with tf.GradientTape(persistent=True) as tape:
    rounded = tf.round(x)
    straight_through = x + tf.stop_gradient(tf.round(x) - x)

print(t("l04.value_gradient", name="rounded", value=rounded.numpy(), grad=tape.gradient(rounded, x)))
print(t("l04.value_gradient", name="straight_through", value=straight_through.numpy(),
        grad=tape.gradient(straight_through, x).numpy()))
del tape

# %% [markdown] key="custom-why" lang="en"
# ## Custom gradients
#
# Sometimes you want to decide yourself how the gradient of a function is computed:
#
# - the operation has no registered gradient (lesson 3 met one);
# - the default gradient is numerically unstable;
# - you want to reuse an expensive result of the forward pass in the backward pass;
# - you want to change the gradient without changing the value (for example, clip it).
#
# The decorator `@tf.custom_gradient` does this. The decorated function returns two things:
# its value, and a function `backward(upstream)`. During the backward pass the tape calls
# `backward` with `upstream`, the gradient of the target with respect to this function's output,
# and `backward` returns the gradient with respect to each input: by the chain rule, `upstream`
# times the local derivative.

# %% [markdown] key="custom-why" lang="es" src="02759f55"
# ## Gradientes personalizados
#
# A veces quieres decidir tú cómo se calcula el gradiente de una función:
#
# - la operación no tiene gradiente registrado (en la lección 3 vimos una);
# - el gradiente por defecto es numéricamente inestable;
# - quieres aprovechar en la pasada hacia atrás un resultado costoso de la pasada hacia
#   adelante;
# - quieres cambiar el gradiente sin cambiar el valor (por ejemplo, recortarlo).
#
# Para eso está el decorador `@tf.custom_gradient`. La función decorada devuelve dos cosas: su
# valor y una función `backward(upstream)`. Durante la pasada hacia atrás, la cinta llama a
# `backward` con `upstream`, el gradiente del objetivo respecto de la salida de esta función, y
# `backward` devuelve el gradiente respecto de cada entrada: por la regla de la cadena,
# `upstream` multiplicado por la derivada local.

# %% [markdown] key="custom-why" lang="pt" src="02759f55"
# ## Gradientes personalizados
#
# Às vezes você quer decidir como o gradiente de uma função é calculado:
#
# - a operação não tem gradiente registrado (a lição 3 mostrou uma);
# - o gradiente padrão é numericamente instável;
# - você quer reaproveitar na passagem para trás um resultado caro da passagem para a frente;
# - você quer mudar o gradiente sem mudar o valor (por exemplo, recortá-lo).
#
# Para isso existe o decorador `@tf.custom_gradient`. A função decorada devolve duas coisas: o
# seu valor e uma função `backward(upstream)`. Durante a passagem para trás, a fita chama
# `backward` com `upstream`, o gradiente do alvo em relação à saída desta função, e `backward`
# devolve o gradiente em relação a cada entrada: pela regra da cadeia, `upstream` vezes a
# derivada local.

# %% [markdown] key="custom-why" lang="ru" src="02759f55"
# ## Собственные градиенты
#
# Иногда хочется самому решать, как вычисляется градиент функции:
#
# - у операции нет зарегистрированного градиента (такую мы встретили в уроке 3);
# - стандартный градиент численно неустойчив;
# - в обратном проходе хочется повторно использовать дорогой результат прямого прохода;
# - нужно изменить градиент, не меняя значения (например, обрезать его).
#
# Для этого есть декоратор `@tf.custom_gradient`. Декорированная функция возвращает две вещи:
# своё значение и функцию `backward(upstream)`. Во время обратного прохода лента вызывает
# `backward`, передавая `upstream` — градиент цели по выходу этой функции, а `backward`
# возвращает градиент по каждому входу: по цепному правилу это `upstream`, умноженный на
# локальную производную.

# %% [markdown] key="custom-square" lang="en"
# A square with a hand-written gradient shows the contract. The target is $10 \cdot x^2$, so the
# upstream gradient that reaches `square` is $10$, and `backward` returns
# $10 \cdot 2x = 60$ at $x = 3$:

# %% [markdown] key="custom-square" lang="es" src="2d1ad4eb"
# Un cuadrado con su gradiente escrito a mano muestra el contrato. El objetivo es $10 \cdot x^2$,
# así que el gradiente que llega a `square` desde arriba (`upstream`) es $10$, y `backward`
# devuelve $10 \cdot 2x = 60$ en $x = 3$:

# %% [markdown] key="custom-square" lang="pt" src="2d1ad4eb"
# Um quadrado com o gradiente escrito à mão mostra o contrato. O alvo é $10 \cdot x^2$, então o
# gradiente que chega a `square` vindo de cima (`upstream`) é $10$, e `backward` devolve
# $10 \cdot 2x = 60$ em $x = 3$:

# %% [markdown] key="custom-square" lang="ru" src="2d1ad4eb"
# Контракт хорошо виден на квадрате с вручную написанным градиентом. Цель равна $10 \cdot x^2$,
# поэтому градиент, приходящий к `square` сверху (`upstream`), равен $10$, и `backward`
# возвращает $10 \cdot 2x = 60$ при $x = 3$:

# %% key="custom-square-code"
@tf.custom_gradient
def square(x):
    def backward(upstream):
        print("upstream =", upstream.numpy())
        return upstream * 2 * x

    return x**2, backward


x = tf.Variable(3.0)
with tf.GradientTape() as tape:
    target = 10 * square(x)

print("d(target)/dx =", tape.gradient(target, x).numpy())

# %% [markdown] key="custom-no-gradient" lang="en"
# ### Giving a gradient to an operation that has none
#
# In lesson 3, `tf.image.adjust_contrast` raised `LookupError`: it has no registered gradient.
# With $\text{out} = (x - \bar{x}) \cdot f + \bar{x}$, where $\bar{x}$ is each channel's mean
# over the image and $f$ the factor, the chain rule gives
# $\frac{\partial L}{\partial x} = f \cdot u + (1 - f) \cdot \bar{u}$ and
# $\frac{\partial L}{\partial f} = \sum u \cdot (x - \bar{x})$, where $u$ is the upstream
# gradient and $\bar{u}$ its channel mean. We wrap the operation and hand it that gradient. With
# two inputs, `backward` returns two gradients, in the order of the inputs:

# %% [markdown] key="custom-no-gradient" lang="es" src="0e2a9e36"
# ### Dar un gradiente a una operación que no lo tiene
#
# En la lección 3, `tf.image.adjust_contrast` lanzó `LookupError`: no tiene gradiente
# registrado. Con $\text{out} = (x - \bar{x}) \cdot f + \bar{x}$, donde $\bar{x}$ es la media de
# cada canal en la imagen y $f$ el factor, la regla de la cadena da
# $\frac{\partial L}{\partial x} = f \cdot u + (1 - f) \cdot \bar{u}$ y
# $\frac{\partial L}{\partial f} = \sum u \cdot (x - \bar{x})$, donde $u$ es el gradiente que llega
# desde arriba y $\bar{u}$ su media por canal. Envolvemos la operación y le damos ese gradiente.
# Con dos entradas, `backward` devuelve dos gradientes, en el orden de las entradas:

# %% [markdown] key="custom-no-gradient" lang="pt" src="0e2a9e36"
# ### Dar um gradiente a uma operação que não tem
#
# Na lição 3, `tf.image.adjust_contrast` lançou `LookupError`: ela não tem gradiente registrado.
# Com $\text{out} = (x - \bar{x}) \cdot f + \bar{x}$, em que $\bar{x}$ é a média de cada canal na
# imagem e $f$ o fator, a regra da cadeia dá
# $\frac{\partial L}{\partial x} = f \cdot u + (1 - f) \cdot \bar{u}$ e
# $\frac{\partial L}{\partial f} = \sum u \cdot (x - \bar{x})$, em que $u$ é o gradiente que chega
# de cima e $\bar{u}$ a sua média por canal. Envolvemos a operação e entregamos a ela esse
# gradiente. Com duas entradas, `backward` devolve dois gradientes, na ordem das entradas:

# %% [markdown] key="custom-no-gradient" lang="ru" src="0e2a9e36"
# ### Градиент для операции, у которой его нет
#
# В уроке 3 `tf.image.adjust_contrast` вызвала `LookupError`: у неё нет зарегистрированного
# градиента. Для $\text{out} = (x - \bar{x}) \cdot f + \bar{x}$, где $\bar{x}$ — среднее каждого
# канала по изображению, а $f$ — коэффициент, цепное правило даёт
# $\frac{\partial L}{\partial x} = f \cdot u + (1 - f) \cdot \bar{u}$ и
# $\frac{\partial L}{\partial f} = \sum u \cdot (x - \bar{x})$, где $u$ — градиент, пришедший
# сверху, а $\bar{u}$ — его среднее по каналу. Обернём операцию и передадим ей этот градиент.
# Входов два, поэтому `backward` возвращает два градиента в порядке входов:

# %% key="custom-no-gradient-code"
@tf.custom_gradient
def adjust_contrast(images, factor):
    mean = tf.reduce_mean(images, axis=[-3, -2], keepdims=True)

    def backward(upstream):
        upstream_mean = tf.reduce_mean(upstream, axis=[-3, -2], keepdims=True)
        d_images = factor * upstream + (1 - factor) * upstream_mean
        d_factor = tf.reduce_sum(upstream * (images - mean))
        return d_images, d_factor

    return tf.image.adjust_contrast(images, factor), backward


image = tf.Variable([[[0.5, 0.0, 0.0], [0.1, 0.9, 0.3]]])
factor = tf.Variable(2.0)

with tf.GradientTape() as tape:
    loss = tf.reduce_sum(adjust_contrast(image, factor) ** 2)

d_image, d_factor = tape.gradient(loss, [image, factor])
print(d_image.numpy())
print(d_factor.numpy())

# %% [markdown] key="custom-check" lang="en"
# A hand-written gradient deserves a check. The formula of lesson 3, written with operations the
# tape knows, must give the same numbers:

# %% [markdown] key="custom-check" lang="es" src="06559f16"
# Un gradiente escrito a mano merece una comprobación. La fórmula de la lección 3, escrita con
# operaciones que la cinta conoce, tiene que dar los mismos números:

# %% [markdown] key="custom-check" lang="pt" src="06559f16"
# Um gradiente escrito à mão merece uma verificação. A fórmula da lição 3, escrita com operações
# que a fita conhece, precisa dar os mesmos números:

# %% [markdown] key="custom-check" lang="ru" src="06559f16"
# Градиент, написанный вручную, стоит проверить. Формула из урока 3, записанная операциями,
# которые лента знает, должна дать те же числа:

# %% key="custom-check-code"
with tf.GradientTape() as tape:
    mean = tf.reduce_mean(image, axis=[-3, -2], keepdims=True)
    loss = tf.reduce_sum(((image - mean) * factor + mean) ** 2)

check_image, check_factor = tape.gradient(loss, [image, factor])
print(np.allclose(check_image.numpy(), d_image.numpy()), np.allclose(check_factor.numpy(), d_factor.numpy()))

# %% [markdown] key="custom-variables" lang="en"
# ### A custom gradient that reads a Variable
#
# A function decorated with `@tf.custom_gradient` may read trainable `tf.Variable`s that are not
# among its arguments, as a layer reads its weights. The tape must then get their gradients
# from you too: `backward` takes a keyword argument `variables` (the Variables the function
# read) and returns a pair, the gradients for the inputs and a list with one gradient per
# Variable, in the order of `variables`. Without the `variables` argument the call raises
# `TypeError`.

# %% [markdown] key="custom-variables" lang="es" src="31b5afb9"
# ### Un gradiente personalizado que lee una Variable
#
# Una función decorada con `@tf.custom_gradient` puede leer `tf.Variable` entrenables que no
# están entre sus argumentos, como una capa lee sus pesos. Entonces la cinta también necesita que
# le des sus gradientes: `backward` recibe un argumento con nombre `variables` (las Variables
# que la función leyó) y devuelve un par: los gradientes de las entradas y una lista con un
# gradiente por Variable, en el orden de `variables`. Sin el argumento `variables`, la llamada
# lanza `TypeError`.

# %% [markdown] key="custom-variables" lang="pt" src="31b5afb9"
# ### Um gradiente personalizado que lê uma Variable
#
# Uma função decorada com `@tf.custom_gradient` pode ler `tf.Variable` treináveis que não estão
# entre os seus argumentos, como uma camada lê os seus pesos. Então a fita também precisa
# receber de você os gradientes delas: `backward` recebe um argumento nomeado `variables` (as
# Variables que a função leu) e devolve um par: os gradientes das entradas e uma lista com um
# gradiente por Variable, na ordem de `variables`. Sem o argumento `variables`, a chamada lança
# `TypeError`.

# %% [markdown] key="custom-variables" lang="ru" src="31b5afb9"
# ### Собственный градиент для функции, которая читает Variable
#
# Функция с декоратором `@tf.custom_gradient` может читать обучаемые `tf.Variable`, которых нет
# среди её аргументов, — так слой читает свои веса. Тогда и их градиенты ленте должны дать вы:
# `backward` принимает именованный аргумент `variables` (переменные, которые прочитала функция)
# и возвращает пару: градиенты по входам и список с одним градиентом на каждую переменную в
# порядке `variables`. Без аргумента `variables` вызов завершается ошибкой `TypeError`.

# %% key="custom-variables-code"
scale = tf.Variable(2.0)


@tf.custom_gradient
def scaled(x):
    def backward(upstream, variables=None):
        d_x = upstream * scale
        d_scale = tf.reduce_sum(upstream * x)
        return d_x, [d_scale]

    return scale * x, backward


x = tf.constant([1.0, 3.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    loss = tf.reduce_sum(scaled(x) ** 2)

d_x, d_scale = tape.gradient(loss, [x, scale])
print(d_x.numpy(), d_scale.numpy())

# %% [markdown] key="register-gradient" lang="en"
# ### Gradients registered by operation type
#
# TensorFlow has a second, global way to give gradients: `@tf.RegisterGradient("OpType")` on a
# function `grad(op, upstream)` that returns one gradient per input of the operation, and
# `tf.no_gradient("OpType")`, which declares an operation type not differentiable (the tape
# then gives `None` through it, as for `tf.round`). Both act on a registry shared by the whole
# process and keyed by the operation's type name, so they are meant for *new* operation types,
# such as an operation written in C++ and loaded with `tf.load_op_library`; TensorFlow refuses
# (`KeyError`) to register a second gradient for a type that has one. To change the gradient of
# one function of your own, use `tf.custom_gradient`: it changes that function and nothing
# else. minitape's registry behaves the same way: `tf.RegisterGradient("Sin")` raises
# `KeyError`, because `Sin` already has a gradient. Its one operation type without a gradient is
# `AdjustContrastv2` (lesson 3 met its `LookupError` in `tf.image.adjust_contrast`), so that is
# where you can try both:
# register a function for it, or declare it with `tf.no_gradient` and get `None`.
# `minitape._custom.restore_gradient("AdjustContrastv2")` removes your entry again; TensorFlow
# has no such undo, and there a registration lasts as long as the Python process.

# %% [markdown] key="register-gradient" lang="es" src="7cd90706"
# ### Gradientes registrados por tipo de operación
#
# TensorFlow tiene una segunda forma, global, de dar gradientes: `@tf.RegisterGradient("OpType")`
# sobre una función `grad(op, upstream)` que devuelve un gradiente por cada entrada de la
# operación, y `tf.no_gradient("OpType")`, que declara un tipo de operación no diferenciable (la
# cinta da entonces `None` a través de ella, como con `tf.round`). Las dos actúan sobre un
# registro compartido por todo el proceso e indexado por el nombre del tipo de operación, así
# que están pensadas para tipos de operación *nuevos*, como una operación escrita en C++ y
# cargada con `tf.load_op_library`; TensorFlow se niega (`KeyError`) a registrar un segundo
# gradiente para un tipo que ya tiene uno. Para cambiar el gradiente de una función tuya, usa
# `tf.custom_gradient`: cambia esa función y nada más. El registro de minitape se comporta igual:
# `tf.RegisterGradient("Sin")` lanza `KeyError`, porque `Sin` ya tiene gradiente. Su único tipo
# de operación sin gradiente es `AdjustContrastv2` (su `LookupError` apareció en la lección 3),
# así que ahí puedes probar las dos cosas: registrar una función para él, o declararlo con
# `tf.no_gradient` y obtener `None`. `minitape._custom.restore_gradient("AdjustContrastv2")`
# vuelve a quitar tu entrada; TensorFlow no tiene nada parecido, y en él un registro dura lo
# que dure el proceso de Python.

# %% [markdown] key="register-gradient" lang="pt" src="7cd90706"
# ### Gradientes registrados por tipo de operação
#
# O TensorFlow tem uma segunda forma, global, de dar gradientes: `@tf.RegisterGradient("OpType")`
# sobre uma função `grad(op, upstream)` que devolve um gradiente por entrada da operação, e
# `tf.no_gradient("OpType")`, que declara um tipo de operação não diferenciável (a fita então dá
# `None` através dela, como com `tf.round`). As duas agem sobre um registro compartilhado por
# todo o processo e indexado pelo nome do tipo de operação, então foram feitas para tipos de
# operação *novos*, como uma operação escrita em C++ e carregada com `tf.load_op_library`; o
# TensorFlow se recusa (`KeyError`) a registrar um segundo gradiente para um tipo que já tem
# um. Para mudar o gradiente de uma função sua, use `tf.custom_gradient`: ele muda essa função e
# mais nada. O registro do minitape se comporta da mesma forma: `tf.RegisterGradient("Sin")`
# lança `KeyError`, porque `Sin` já tem gradiente. O único tipo de operação dele sem gradiente é
# `AdjustContrastv2` (o `LookupError` dele apareceu na lição 3), então é ali que você pode
# experimentar as duas coisas: registrar uma função para ele, ou declará-lo com
# `tf.no_gradient` e obter `None`. `minitape._custom.restore_gradient("AdjustContrastv2")` remove
# a sua entrada de novo; o TensorFlow não tem nada parecido, e nele um registro dura enquanto
# durar o processo Python.

# %% [markdown] key="register-gradient" lang="ru" src="7cd90706"
# ### Градиенты, зарегистрированные по типу операции
#
# В TensorFlow есть второй, глобальный способ задать градиент: `@tf.RegisterGradient("OpType")`
# над функцией `grad(op, upstream)`, которая возвращает по одному градиенту на каждый вход
# операции, и `tf.no_gradient("OpType")`, который объявляет тип операции недифференцируемым
# (лента тогда даёт через неё `None`, как для `tf.round`). Оба действуют на реестр, общий для
# всего процесса и индексированный по имени типа операции, поэтому они предназначены для
# *новых* типов операций, например операции на C++, загруженной через `tf.load_op_library`;
# зарегистрировать второй градиент для типа, у которого он уже есть, TensorFlow не даёт
# (`KeyError`). Чтобы изменить градиент одной своей функции, используйте `tf.custom_gradient`:
# он меняет эту функцию и больше ничего. Реестр minitape ведёт себя так же:
# `tf.RegisterGradient("Sin")` вызывает `KeyError`, потому что у `Sin` градиент уже есть.
# Единственный тип операции без градиента в minitape — `AdjustContrastv2` (его `LookupError`
# встречался в уроке 3), поэтому пробовать обе функции можно на нём: зарегистрировать для него
# свою функцию или объявить его через `tf.no_gradient` и получить `None`.
# `minitape._custom.restore_gradient("AdjustContrastv2")` снова убирает вашу запись; в
# TensorFlow такой отмены нет, и регистрация действует, пока жив процесс Python.

# %% [markdown] key="custom-clip" lang="en"
# ### Clipping a gradient
#
# This function is the identity on the way forward, but on the way back it shortens the
# upstream gradient to a norm of at most $0.5$ with `tf.clip_by_norm`. Follow the numbers: the
# target is the function's output, so `upstream` is $1$ and is clipped to $0.5$; the chain rule
# then multiplies by $\frac{d(v^2)}{dv} = 2v = 4$. Instead of $4$, the gradient is
# $0.5 \cdot 4 = 2$.

# %% [markdown] key="custom-clip" lang="es" src="a75fccaf"
# ### Recortar un gradiente
#
# Esta función es la identidad en la pasada hacia adelante, pero en la pasada hacia atrás acorta
# el gradiente que le llega hasta una norma de, como mucho, $0.5$ con `tf.clip_by_norm`. Sigue
# los números: el objetivo es la salida de la función, así que `upstream` vale $1$ y se recorta a
# $0.5$; después, la regla de la cadena multiplica por $\frac{d(v^2)}{dv} = 2v = 4$. En lugar de
# $4$, el gradiente es $0.5 \cdot 4 = 2$.

# %% [markdown] key="custom-clip" lang="pt" src="a75fccaf"
# ### Recortar um gradiente
#
# Esta função é a identidade na passagem para a frente, mas na passagem para trás encurta o
# gradiente que chega até uma norma de no máximo $0.5$ com `tf.clip_by_norm`. Acompanhe os
# números: o alvo é a saída da função, então `upstream` vale $1$ e é recortado para $0.5$;
# depois, a regra da cadeia multiplica por $\frac{d(v^2)}{dv} = 2v = 4$. Em vez de $4$, o
# gradiente é $0.5 \cdot 4 = 2$.

# %% [markdown] key="custom-clip" lang="ru" src="a75fccaf"
# ### Обрезка градиента
#
# На прямом проходе эта функция возвращает свой вход без изменений, а на обратном укорачивает
# пришедший градиент с
# помощью `tf.clip_by_norm` так, чтобы его норма была не больше $0.5$. Проследим за числами:
# цель — это выход функции, поэтому `upstream` равен $1$ и обрезается до $0.5$; затем цепное
# правило умножает его на $\frac{d(v^2)}{dv} = 2v = 4$. Вместо $4$ получается градиент
# $0.5 \cdot 4 = 2$.

# %% key="custom-clip-code"
@tf.custom_gradient
def clip_gradients(y):
    def backward(upstream):
        return tf.clip_by_norm(upstream, 0.5)

    return y, backward


v = tf.Variable(2.0)
with tf.GradientTape() as tape:
    output = clip_gradients(v * v)

print(tape.gradient(output, v))

# %% [markdown] key="clip-widget" lang="en"
# ### Explore: clipping keeps the direction
#
# For a vector, `tf.clip_by_norm` keeps the direction of the gradient and only shortens it, so
# that its length is at most the clip norm. Below, the loss is
# $L(w) = \frac{1}{2}(w_0^2 + 4 w_1^2)$ at $w = (1, 0.5)$: the grey arrow is its ordinary gradient,
# the red arrow what the tape returns when $w$ first goes through a gradient-clipping identity.
# Move the slider: whenever the ordinary gradient is longer than the clip norm (the radius of the
# dotted circle), the red arrow stops at the circle, always along the same line.
#
# That holds because `tf.clip_by_norm` scales one whole tensor by one factor. Other clipping can
# turn the gradient: `tf.clip_by_value` clips each component on its own (the long component is cut,
# the short one is not), and clipping each variable of a model with its own `clip_by_norm` changes
# the direction of the gradient of all the variables together. `tf.clip_by_global_norm` scales
# every tensor by one common factor, so it keeps that overall direction.

# %% [markdown] key="clip-widget" lang="es" src="df593492"
# ### Explora: recortar conserva la dirección
#
# Para un vector, `tf.clip_by_norm` conserva la dirección del gradiente y solo lo acorta, de modo
# que su longitud no pase de la norma de recorte. Abajo, la pérdida es
# $L(w) = \frac{1}{2}(w_0^2 + 4 w_1^2)$ en $w = (1, 0.5)$: la flecha gris es su gradiente de
# siempre, y la roja, lo que devuelve la cinta cuando $w$ pasa antes por una identidad que recorta
# el gradiente. Mueve el deslizador: siempre que el gradiente normal sea más largo que la norma de
# recorte (el radio del círculo punteado), la flecha roja se detiene en el círculo, siempre sobre
# la misma recta.
#
# Esto se cumple porque `tf.clip_by_norm` escala un tensor entero por un único factor. Otros
# recortes sí pueden girar el gradiente: `tf.clip_by_value` recorta cada componente por separado
# (la componente larga se corta y la corta no), y recortar cada variable de un modelo con su
# propio `clip_by_norm` cambia la dirección del gradiente de todas las variables en conjunto.
# `tf.clip_by_global_norm` escala todos los tensores por un mismo factor, así que conserva esa
# dirección global.

# %% [markdown] key="clip-widget" lang="pt" src="df593492"
# ### Explore: recortar preserva a direção
#
# Para um vetor, `tf.clip_by_norm` preserva a direção do gradiente e apenas o encurta, de modo que
# o seu comprimento não passe da norma de recorte. Abaixo, a perda é
# $L(w) = \frac{1}{2}(w_0^2 + 4 w_1^2)$ em $w = (1, 0.5)$: a seta cinza é o seu gradiente comum, e
# a vermelha, o que a fita devolve quando $w$ passa antes por uma identidade que recorta o
# gradiente. Mova o controle deslizante: sempre que o gradiente comum for mais comprido que a
# norma de recorte (o raio do círculo pontilhado), a seta vermelha para no círculo, sempre sobre
# a mesma reta.
#
# Isso vale porque `tf.clip_by_norm` escala um tensor inteiro por um único fator. Outros recortes
# podem, sim, girar o gradiente: `tf.clip_by_value` recorta cada componente separadamente (a
# componente longa é cortada, a curta não), e recortar cada variável de um modelo com o seu
# próprio `clip_by_norm` muda a direção do gradiente de todas as variáveis juntas.
# `tf.clip_by_global_norm` escala todos os tensores por um mesmo fator, e assim preserva essa
# direção global.

# %% [markdown] key="clip-widget" lang="ru" src="df593492"
# ### Исследуйте: обрезка сохраняет направление
#
# Для вектора `tf.clip_by_norm` сохраняет направление градиента и только укорачивает его так,
# чтобы длина не превышала порог нормы. Ниже функция потерь равна
# $L(w) = \frac{1}{2}(w_0^2 + 4 w_1^2)$ в точке $w = (1, 0.5)$: серая стрелка — её обычный
# градиент, красная — то, что возвращает лента, когда $w$ сначала проходит через тождественную
# функцию с обрезкой градиента. Двигайте ползунок: когда обычный градиент длиннее порога (радиуса
# пунктирной окружности), красная стрелка останавливается на окружности, всегда на той же
# прямой.
#
# Так получается потому, что `tf.clip_by_norm` умножает весь тензор на один общий множитель.
# Другие способы обрезки могут и повернуть градиент: `tf.clip_by_value` обрезает каждую
# компоненту по отдельности (длинную компоненту режет, короткую — нет), а если обрезать каждую
# переменную модели своим `clip_by_norm`, меняется направление градиента по всем переменным
# вместе. `tf.clip_by_global_norm` умножает все тензоры на один общий множитель и потому это
# общее направление сохраняет.

# %% key="clip-widget-code"
def gradient_clipper(max_norm):
    @tf.custom_gradient
    def clip(w):
        def backward(upstream):
            return tf.clip_by_norm(upstream, max_norm)

        return tf.identity(w), backward

    return clip


def bowl(w):
    return 0.5 * tf.reduce_sum(tf.constant([1.0, 4.0]) * w**2)


def bowl_gradients(w0, max_norm):
    w = tf.Variable(w0)
    with tf.GradientTape(persistent=True) as tape:
        plain = bowl(w)
        clipped = bowl(gradient_clipper(max_norm)(w))
    return tape.gradient(plain, w).numpy(), tape.gradient(clipped, w).numpy()


def draw_clipping(max_norm, w0=(1.0, 0.5)):
    plain, clipped = bowl_gradients(list(w0), max_norm)
    fig = Figure(figsize=(5.0, 4.6), dpi=90)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    grid = np.linspace(-1.5, 3.5, 101)
    a, b = np.meshgrid(grid, grid)
    ax.contour(a, b, 0.5 * (a**2 + 4 * b**2), levels=12, colors="0.85", linewidths=0.8)
    ax.add_patch(Circle(w0, max_norm, fill=False, linestyle=":", color="tab:red"))
    ax.arrow(*w0, *plain, width=0.09, color="0.75", length_includes_head=True, label=t("l04.clip.plain"))
    ax.arrow(*w0, *clipped, width=0.04, color="tab:red", length_includes_head=True, label=t("l04.clip.clipped"))
    ax.set(xlim=(-1.5, 3.5), ylim=(-1.5, 3.5), aspect="equal", xlabel="w₀", ylabel="w₁")
    ax.set_title(t("l04.clip.title"), fontsize=10)
    ax.legend(loc="upper left", fontsize=8)
    return fig, plain, clipped


clip_slider = widgets.FloatSlider(value=1.0, min=0.25, max=3.0, step=0.25, description=t("l04.clip.slider"),
                                  continuous_update=False, style={"description_width": "initial"})
clip_readout = widgets.HTML()
clip_image = widgets.Image(format="png")


def show_clipping(change=None):
    fig, plain, clipped = draw_clipping(clip_slider.value)
    clip_readout.value = t("l04.clip.readout", plain=f"{np.linalg.norm(plain):.3f}",
                           clipped=f"{np.linalg.norm(clipped):.3f}")
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    clip_image.value = buffer.getvalue()


clip_slider.observe(show_clipping, names="value")
show_clipping()
widgets.VBox([clip_slider, clip_readout, clip_image])

# %% [markdown] key="log1pexp" lang="en"
# ### A numerically stable gradient
#
# The function $\log(1 + e^x)$ (called *softplus*) is everywhere in machine learning. Written
# naively, its gradient breaks down for large $x$. In float32, $e^{100}$ overflows to infinity
# (NumPy warns about it), and the backward pass multiplies the derivative of the logarithm,
# $\frac{1}{1 + e^x} = 0$, by the derivative of the exponential, $e^x = \infty$: $0 \cdot \infty$
# is NaN (*not a number*):

# %% [markdown] key="log1pexp" lang="es" src="ac00c6ee"
# ### Un gradiente numéricamente estable
#
# La función $\log(1 + e^x)$ (llamada *softplus*) aparece por todas partes en aprendizaje
# automático. Escrita de forma ingenua, su gradiente se rompe para $x$ grande. En float32,
# $e^{100}$ se desborda a infinito (NumPy avisa de ello), y la pasada hacia atrás multiplica la
# derivada del logaritmo, $\frac{1}{1 + e^x} = 0$, por la derivada de la exponencial,
# $e^x = \infty$: $0 \cdot \infty$ es NaN (*not a number*, «no es un número»):

# %% [markdown] key="log1pexp" lang="pt" src="ac00c6ee"
# ### Um gradiente numericamente estável
#
# A função $\log(1 + e^x)$ (chamada *softplus*) aparece em toda parte em aprendizado de máquina.
# Escrita de forma ingênua, o seu gradiente quebra para $x$ grande. Em float32, $e^{100}$ estoura
# para infinito (o NumPy avisa), e a passagem para trás multiplica a derivada do logaritmo,
# $\frac{1}{1 + e^x} = 0$, pela derivada da exponencial, $e^x = \infty$: $0 \cdot \infty$ é NaN
# (*not a number*, "não é um número"):

# %% [markdown] key="log1pexp" lang="ru" src="ac00c6ee"
# ### Численно устойчивый градиент
#
# Функция $\log(1 + e^x)$ (её называют *softplus*) встречается в машинном обучении повсюду. Если
# записать её в лоб, градиент ломается при больших $x$. В float32 $e^{100}$ переполняется до
# бесконечности (NumPy об этом предупреждает), и обратный проход умножает производную логарифма
# $\frac{1}{1 + e^x} = 0$ на производную экспоненты $e^x = \infty$: $0 \cdot \infty$ — это NaN
# (*not a number*, «не число»):

# %% key="log1pexp-code"
def log1pexp(x):
    return tf.math.log(1 + tf.exp(x))


x = tf.constant(100.0)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = log1pexp(x)

print("log1pexp(100) =", y.numpy(), "   d/dx =", tape.gradient(y, x).numpy())

# %% [markdown] key="log1pexp-stable" lang="en"
# Mathematically the gradient is $\frac{e^x}{1 + e^x} = 1 - \frac{1}{1 + e^x}$, and the second
# form has no problem with $e^x = \infty$: it gives $1 - 0 = 1$. A custom gradient computes it
# that way, reusing the $e^x$ of the forward pass:

# %% [markdown] key="log1pexp-stable" lang="es" src="f7ebe6ef"
# Matemáticamente, el gradiente es $\frac{e^x}{1 + e^x} = 1 - \frac{1}{1 + e^x}$, y la segunda
# forma no tiene ningún problema con $e^x = \infty$: da $1 - 0 = 1$. Un gradiente personalizado
# lo calcula así, reutilizando el $e^x$ de la pasada hacia adelante:

# %% [markdown] key="log1pexp-stable" lang="pt" src="f7ebe6ef"
# Matematicamente, o gradiente é $\frac{e^x}{1 + e^x} = 1 - \frac{1}{1 + e^x}$, e a segunda forma
# não tem problema nenhum com $e^x = \infty$: ela dá $1 - 0 = 1$. Um gradiente personalizado o
# calcula assim, reaproveitando o $e^x$ da passagem para a frente:

# %% [markdown] key="log1pexp-stable" lang="ru" src="f7ebe6ef"
# Математически градиент равен $\frac{e^x}{1 + e^x} = 1 - \frac{1}{1 + e^x}$, и второй форме
# $e^x = \infty$ нисколько не мешает: она даёт $1 - 0 = 1$. Собственный градиент вычисляет его
# именно так, повторно используя $e^x$ из прямого прохода:

# %% key="log1pexp-stable-code"
@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def backward(upstream):
        return upstream * (1 - 1 / (1 + e))

    return tf.math.log(1 + e), backward


with tf.GradientTape() as tape:
    tape.watch(x)
    y = log1pexp(x)

print("log1pexp(100) =", y.numpy(), "   d/dx =", tape.gradient(y, x).numpy())

# %% [markdown] key="log1pexp-value" lang="en"
# The gradient is right now, but look at the value: still $\infty$, because the forward pass
# still computes $e^{100}$. A custom gradient only changes the backward pass; a stable *value*
# needs a stable formula too. You will write one in exercise 2.

# %% [markdown] key="log1pexp-value" lang="es" src="16046ecc"
# Ahora el gradiente es correcto, pero fíjate en el valor: sigue siendo $\infty$, porque la
# pasada hacia adelante sigue calculando $e^{100}$. Un gradiente personalizado solo cambia la
# pasada hacia atrás; un *valor* estable necesita también una fórmula estable. La escribirás en
# el ejercicio 2.

# %% [markdown] key="log1pexp-value" lang="pt" src="16046ecc"
# Agora o gradiente está certo, mas repare no valor: continua $\infty$, porque a passagem para a
# frente continua calculando $e^{100}$. Um gradiente personalizado só muda a passagem para trás;
# um *valor* estável também precisa de uma fórmula estável. Você vai escrevê-la no exercício 2.

# %% [markdown] key="log1pexp-value" lang="ru" src="16046ecc"
# Теперь градиент правильный, но посмотрите на значение: по-прежнему $\infty$, потому что прямой
# проход всё так же вычисляет $e^{100}$. Собственный градиент меняет только обратный проход;
# для устойчивого *значения* нужна ещё и устойчивая формула. Вы напишете её в упражнении 2.

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
# $\sigma'(0) = \sigma(0)\,(1 - \sigma(0)) = 0.25$.

# %% [markdown] key="several-tapes" lang="pt" src="1659c407"
# ## Várias fitas ao mesmo tempo
#
# As fitas não interferem umas nas outras: cada uma grava as operações sobre os tensores que
# *ela* observa. Aqui `tape0` observa $x_0$ e `tape1` observa $x_1$; o código roda uma vez, e
# cada fita grava a parte dele que envolve o seu próprio tensor. Por isso cada fita responde pela
# sua própria fonte: $\cos 0 = 1$ e $\sigma'(0) = \sigma(0)\,(1 - \sigma(0)) = 0.25$.

# %% [markdown] key="several-tapes" lang="ru" src="1659c407"
# ## Несколько лент одновременно
#
# Ленты не мешают друг другу: каждая записывает операции над тензорами, которые отслеживает
# *она*. Здесь `tape0` отслеживает $x_0$, а `tape1` — $x_1$; код выполняется один раз, и каждая
# лента записывает ту его часть, которая касается её тензора. Поэтому каждая лента отвечает за
# свой источник: $\cos 0 = 1$ и $\sigma'(0) = \sigma(0)\,(1 - \sigma(0)) = 0.25$.

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
# mínimo si allí $f'' > 0$ (la curva se dobla hacia arriba) y un máximo si $f'' < 0$ (se dobla
# hacia abajo). Si también $f'' = 0$, la segunda derivada no decide: $x^3$ en $x = 0$ tiene
# $f' = f'' = 0$ y no es ni mínimo ni máximo, sino un punto de inflexión, donde la curva cambia
# de curvatura.

# %% [markdown] key="higher-order-curve" lang="pt" src="446f69b6"
# O truque elemento a elemento da lição 3 funciona em qualquer ordem: para uma função elemento a
# elemento, uma passagem para trás dá $f'$ em cada ponto de uma grade e, como $f'$ também é
# elemento a elemento, uma segunda passagem dá $f''$. Aqui está
# $f(x) = \frac{x^4}{4} - x^2 + \frac{x}{2}$ com as suas duas primeiras derivadas, as três
# saídas de um único par de fitas aninhadas. Onde $f' = 0$, a reta tangente é horizontal. Esse
# ponto é um mínimo se ali $f'' > 0$ (a curva se dobra para cima) e um máximo se $f'' < 0$ (ela
# se dobra para baixo). Se $f''$ também for zero, a segunda derivada não decide: $x^3$ em $x = 0$
# tem $f' = f'' = 0$ e não é nem mínimo nem máximo, só um ponto de inflexão, onde a curva muda
# de concavidade.

# %% [markdown] key="higher-order-curve" lang="ru" src="446f69b6"
# Поэлементный приём из урока 3 работает для производных любого порядка: для поэлементной
# функции один обратный проход даёт $f'$ во всех точках сетки, а так как $f'$ тоже
# поэлементна, второй проход даёт $f''$. Вот $f(x) = \frac{x^4}{4} - x^2 + \frac{x}{2}$ и две её
# первые производные — все три получены одной парой вложенных лент. Там, где $f' = 0$,
# касательная горизонтальна. Такая точка — минимум, если в ней $f'' > 0$ (график выпуклый вниз),
# и максимум, если $f'' < 0$ (выпуклый вверх). Если и $f'' = 0$, вторая производная ответа не
# даёт: у $x^3$ в точке $x = 0$ $f' = f'' = 0$, но это ни минимум, ни максимум, а точка перегиба,
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
plt.title(t("l04.derivatives.title"), fontsize=10)
plt.legend()
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
# el tamaño de $\frac{\partial \text{output}}{\partial \text{input}}$. Entrenar con esa pérdida
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
# $\frac{\partial \text{output}}{\partial \text{input}}$. Treinar com essa perda exige o seu
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
# (состязательные примеры — как раз такие изменения): к функции потерь добавляется величина
# $\frac{\partial \text{output}}{\partial \text{input}}$. Чтобы обучаться на такой функции потерь,
# нужен её градиент по переменным модели — градиент от градиента:
#
# 1. внутренняя лента вычисляет градиент выхода по входу;
# 2. вычисляется модуль этого градиента — всё ещё под внешней лентой;
# 3. внешняя лента дифференцирует этот модуль по переменным модели.

# %% key="input-gradient-code"
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
# alvo $y$ e uma fonte $x$ ele contém todas as $\frac{\partial y_i}{\partial x_j}$, e
# `tape.jacobian(target, source)` tem formato `target.shape + source.shape`. Na lição 3 vimos
# que o gradiente das saídas de uma softmax é zero; a jacobiana mostra o que cada saída faz. Cada
# uma das suas colunas soma zero, e é por isso que a soma dava zero:

# %% [markdown] key="jacobian" lang="ru" src="aed2e58e"
# ## Якобианы
#
# `gradient` складывает элементы цели (урок 3). *Якобиан* держит их по отдельности: для цели $y$
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
# Deslocar uma sigmoide de $\delta$ muda cada um dos seus 201 valores no seu próprio ritmo,
# $\sigma'(x_i + \delta)$. O gradiente, em comparação, é um único número: a soma desses
# ritmos.

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
print("y:", y.shape, "   jacobian:", dy_ddelta.shape, "   gradient:", tape.gradient(y, delta).shape)
print("max |jacobian - σ(1 - σ)| =", np.abs(dy_ddelta.numpy() - (y * (1 - y)).numpy()).max())
del tape

# %% [markdown] key="jacobian-tensor" lang="en"
# ### A tensor source
#
# For a `Dense` layer with 10 units on a batch of 7 inputs with 5 features, the output has shape
# (7, 10) and the kernel (5, 10): the Jacobian has shape (7, 10, 5, 10). Summed over the
# target's axes it gives back the gradient. The Jacobian costs one backward pass per target
# element, here 70 (TensorFlow runs them vectorized; minitape runs them one after another),
# so it is expensive for large targets.

# %% [markdown] key="jacobian-tensor" lang="es" src="1d165a23"
# ### Una fuente tensorial
#
# Para una capa `Dense` de 10 unidades sobre un lote de 7 entradas con 5 características, la
# salida tiene forma (7, 10) y el kernel, (5, 10): el jacobiano tiene forma (7, 10, 5, 10). Si lo
# sumas sobre los ejes del objetivo, recuperas el gradiente. El jacobiano cuesta una pasada hacia
# atrás por cada elemento del objetivo, aquí 70 (TensorFlow las ejecuta vectorizadas; minitape,
# una detrás de otra), así que sale caro para objetivos grandes.

# %% [markdown] key="jacobian-tensor" lang="pt" src="1d165a23"
# ### Uma fonte tensorial
#
# Para uma camada `Dense` de 10 unidades sobre um lote de 7 entradas com 5 atributos, a saída tem
# formato (7, 10) e o kernel, (5, 10): a jacobiana tem formato (7, 10, 5, 10). Somada sobre os
# eixos do alvo, ela devolve o gradiente. A jacobiana custa uma passagem para trás por elemento
# do alvo, aqui 70 (o TensorFlow as executa vetorizadas; o minitape, uma depois da outra), então
# ele fica caro para alvos grandes.

# %% [markdown] key="jacobian-tensor" lang="ru" src="1d165a23"
# ### Тензорный источник
#
# Для слоя `Dense` из 10 нейронов на батче из 7 входов с 5 признаками выход имеет форму (7, 10),
# а ядро (`kernel`) — (5, 10): якобиан имеет форму (7, 10, 5, 10). Если просуммировать его по осям
# цели, получится градиент. Якобиан стоит одного обратного прохода на каждый элемент цели, здесь
# их 70 (TensorFlow выполняет их векторизованно, minitape — один за другим), поэтому для больших
# целей он дорог.

# %% key="jacobian-tensor-code"
x = tf.random.normal([7, 5])
layer = tf.keras.layers.Dense(10, activation=tf.nn.relu)

with tf.GradientTape(persistent=True) as tape:
    y = layer(x)

j = tape.jacobian(y, layer.kernel)
g = tape.gradient(y, layer.kernel)
del tape

print("y:", y.shape, "   kernel:", layer.kernel.shape, "   jacobian:", j.shape)
j_sum = tf.reduce_sum(j, axis=[0, 1])
print("max |j_sum - gradient| =", tf.reduce_max(tf.abs(g - j_sum)).numpy())

# %% [markdown] key="output-gradients" lang="en"
# ### One row combination at the price of one pass: `output_gradients`
#
# `tape.gradient(y, x)` starts the backward pass with ones for every element of `y`, which is
# why it returns the Jacobian's rows added up. `output_gradients=u` starts it with `u` instead
# (a tensor of the shape of `y`) and returns $u^\top J$, the rows weighted by `u`: a
# vector-Jacobian product for the price of one backward pass, without building $J$. This is
# what a layer asks of the next one during backpropagation, and what the backward pass of the
# tape you build in lesson 7 computes:

# %% [markdown] key="output-gradients" lang="es" src="854ba31f"
# ### Una combinación de filas al precio de una pasada: `output_gradients`
#
# `tape.gradient(y, x)` empieza la pasada hacia atrás con unos en cada elemento de `y`; por eso
# devuelve las filas del jacobiano sumadas. `output_gradients=u` la empieza con `u` (un tensor
# de la forma de `y`) y devuelve $u^\top J$, las filas ponderadas por `u`: un producto
# vector-jacobiano al precio de una pasada hacia atrás, sin construir $J$. Es lo que una capa
# pide a la siguiente durante la retropropagación, y lo que calcula la pasada hacia atrás de la
# cinta que construirás en la lección 7:

# %% [markdown] key="output-gradients" lang="pt" src="854ba31f"
# ### Uma combinação de linhas pelo preço de uma passagem: `output_gradients`
#
# `tape.gradient(y, x)` começa a passagem para trás com uns em cada elemento de `y`; por isso
# devolve as linhas da jacobiana somadas. `output_gradients=u` a começa com `u` (um tensor com
# o formato de `y`) e devolve $u^\top J$, as linhas ponderadas por `u`: um produto
# vetor-jacobiana pelo preço de uma passagem para trás, sem construir $J$. É o que uma camada
# pede à seguinte durante a retropropagação, e o que calcula a passagem para trás da fita que
# você vai construir na lição 7:

# %% [markdown] key="output-gradients" lang="ru" src="854ba31f"
# ### Комбинация строк по цене одного прохода: `output_gradients`
#
# `tape.gradient(y, x)` начинает обратный проход с единиц во всех элементах `y`, поэтому и
# возвращает сумму строк якобиана. `output_gradients=u` начинает его с `u` (тензора формы `y`)
# и возвращает $u^\top J$ — строки, взвешенные по `u`: произведение вектора на якобиан по цене
# одного обратного прохода, без построения $J$. Именно это один слой запрашивает у следующего
# при обратном распространении, и именно это вычисляет обратный проход ленты, которую вы
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
# лента вычисляет градиент, а внешняя берёт от него `jacobian`. Для ядра (5, 8) первого слоя
# гессиан имеет форму (5, 8, 5, 8), а если его переформировать — это симметричная матрица
# 40 × 40. Он растёт как *квадрат* числа параметров, поэтому гессиан настоящей сети целиком
# никогда не строят.

# %% key="hessian-code"
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
print("kernel:", layer1.kernel.shape, "   h:", h.shape, "   h_mat:", h_mat.shape)
print("max |H - Hᵀ| =", np.abs(h_mat.numpy() - h_mat.numpy().T).max())

plt.figure(figsize=(5.6, 4.4))
limit = np.abs(h_mat.numpy()).max()
plt.imshow(h_mat.numpy(), cmap="RdBu_r", vmin=-limit, vmax=limit)
plt.colorbar()
plt.title(t("l04.hessian.title"), fontsize=10)
plt.show()

# %% [markdown] key="newton" lang="en"
# ## A Newton step
#
# Gradient descent steps along $-g$ with a step size you choose. *Newton's method* uses the
# curvature as well: near a minimum the loss is roughly a parabola, and the step
# $\Delta = H^{-1} g$ jumps to the bottom of that parabola. Instead of inverting $H$, solve the
# linear system $H \Delta = g$ with `tf.linalg.solve`. This $H$ is singular, though: it has zero
# eigenvalues, directions in which the loss does not curve at all (a ReLU network is piecewise
# linear, so all its curvature comes from the square in the loss). Adding a small
# $\varepsilon I$ makes the system solvable:

# %% [markdown] key="newton" lang="es" src="14abd06b"
# ## Un paso de Newton
#
# El descenso del gradiente avanza en la dirección $-g$ con un tamaño de paso que eliges tú. El
# *método de Newton* usa además la curvatura: cerca de un mínimo, la pérdida es más o menos una
# parábola, y el paso $\Delta = H^{-1} g$ salta al fondo de esa parábola. En lugar de invertir
# $H$, resuelve el sistema lineal $H \Delta = g$ con `tf.linalg.solve`. Eso sí, esta $H$ es
# singular: tiene autovalores nulos, direcciones en las que la pérdida no se curva en absoluto
# (una red ReLU es lineal a trozos, así que toda su curvatura viene del cuadrado de la pérdida).
# Sumar un pequeño $\varepsilon I$ hace que el sistema tenga solución:

# %% [markdown] key="newton" lang="pt" src="14abd06b"
# ## Um passo de Newton
#
# A descida do gradiente anda na direção $-g$ com um tamanho de passo escolhido por você. O
# *método de Newton* também usa a curvatura: perto de um mínimo, a perda é mais ou menos uma
# parábola, e o passo $\Delta = H^{-1} g$ salta para o fundo dessa parábola. Em vez de inverter
# $H$, resolva o sistema linear $H \Delta = g$ com `tf.linalg.solve`. Só que esta $H$ é singular:
# ela tem autovalores nulos, direções em que a perda não se curva nada (uma rede ReLU é linear
# por partes, então toda a sua curvatura vem do quadrado na perda). Somar um pequeno
# $\varepsilon I$ torna o sistema solúvel:

# %% [markdown] key="newton" lang="ru" src="14abd06b"
# ## Шаг метода Ньютона
#
# Градиентный спуск делает шаг в направлении $-g$ с длиной шага, которую выбираете вы. *Метод
# Ньютона* учитывает ещё и кривизну: вблизи минимума функция потерь примерно парабола, и шаг
# $\Delta = H^{-1} g$ переносит прямо на дно этой параболы. Вместо того чтобы обращать $H$,
# решите линейную систему $H \Delta = g$ с помощью `tf.linalg.solve`. Правда, этот $H$
# вырожден: у него есть нулевые собственные значения — направления, в которых функция потерь
# вообще не искривлена (сеть с ReLU кусочно-линейна, и вся её кривизна берётся из квадрата в
# функции потерь). Небольшая добавка $\varepsilon I$ делает систему разрешимой:

# %% key="newton-code"
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
# at $x = 2.5$, with both derivatives from nested tapes. The figure shows $|f'(x_k)|$, how far
# each method still is from a flat point: gradient descent gains a roughly constant factor per
# step, while Newton's method roughly *doubles the number of correct digits* per step once it is
# close.

# %% [markdown] key="newton-1d" lang="es" src="ddec127e"
# En una dimensión, el hessiano es simplemente $f''$ y el paso es $\frac{f'(x)}{f''(x)}$.
# Comparemos el método de Newton con el descenso del gradiente (tamaño de paso 0,1) sobre la $f$ de
# la figura anterior, empezando en $x = 2.5$, con ambas derivadas obtenidas con cintas anidadas.
# La figura muestra $|f'(x_k)|$, lo lejos que está todavía cada método de un punto plano: el
# descenso del gradiente mejora en un factor más o menos constante en cada paso, mientras que el
# método de Newton, una vez cerca, *duplica aproximadamente el número de cifras correctas* en
# cada paso.

# %% [markdown] key="newton-1d" lang="pt" src="ddec127e"
# Em uma dimensão, a hessiana é simplesmente $f''$ e o passo é $\frac{f'(x)}{f''(x)}$. Vamos
# comparar o método de Newton com a descida do gradiente (tamanho de passo 0,1) na $f$ da figura
# acima, começando em $x = 2.5$, com as duas derivadas vindas de fitas aninhadas. A figura mostra
# $|f'(x_k)|$, o quanto cada método ainda está longe de um ponto plano: a descida do gradiente
# melhora por um fator mais ou menos constante a cada passo, enquanto o método de Newton, quando
# já está perto, *praticamente dobra o número de dígitos corretos* a cada passo.

# %% [markdown] key="newton-1d" lang="ru" src="ddec127e"
# В одномерном случае гессиан — это просто $f''$, а шаг равен $\frac{f'(x)}{f''(x)}$. Сравним
# метод Ньютона с градиентным спуском (длина шага 0,1) для $f$ с рисунка выше, начиная с
# $x = 2.5$; обе производные даёт пара вложенных лент. На рисунке показано $|f'(x_k)|$ — насколько
# каждый метод ещё далёк от точки, где $f' = 0$: градиентный спуск за шаг улучшает результат
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
    return np.abs(points**3 - 2 * points + 0.5)  # |f'(x)|, written out to plot it


newton_points, descent_points = newton_path(2.5), descent_path(2.5)
plt.figure(figsize=(6.0, 3.6))
plt.semilogy(slope(descent_points) + 1e-17, "o-", label=t("l04.newton.descent"))
plt.semilogy(slope(newton_points) + 1e-17, "s-", color="tab:red", label=t("l04.newton.newton"))
plt.xlabel(t("l04.newton.step"))
plt.ylabel("|f′(x)|")
plt.title(t("l04.newton.convergence"), fontsize=10)
plt.legend()
plt.show()
print(t("l04.newton.newton") + ":", np.round(newton_points, 4))
print(t("l04.newton.descent") + ":", np.round(descent_points, 4))

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
# ($-0.82 < x_0 < 0.82$, donde $f'' < 0$) y mira dónde acaba; después empieza cerca de un punto
# de inflexión, donde $f''$ es casi cero y el paso $\frac{f'}{f''}$ es enorme. El descenso de
# gradiente es más lento, pero siempre va cuesta abajo.

# %% [markdown] key="newton-widget" lang="pt" src="a00527a2"
# ### Explore: para onde o método de Newton vai
#
# Mova o ponto de partida. O método de Newton procura um ponto onde $f' = 0$, e para ele tanto faz
# se esse ponto é um mínimo ou um máximo. Comece entre os dois pontos de inflexão
# ($-0.82 < x_0 < 0.82$, onde $f'' < 0$) e veja onde ele termina; depois comece perto de um ponto
# de inflexão, onde $f''$ é quase zero e o passo $\frac{f'}{f''}$ é enorme. A descida de
# gradiente é mais lenta, mas sempre desce a ladeira.

# %% [markdown] key="newton-widget" lang="ru" src="a00527a2"
# ### Исследуйте: куда приходит метод Ньютона
#
# Двигайте начальную точку. Метод Ньютона ищет точку, где $f' = 0$, и ему всё равно, минимум это
# или максимум. Начните между двумя точками перегиба ($-0.82 < x_0 < 0.82$, где $f'' < 0$) и
# посмотрите, где он окажется; затем начните рядом с точкой перегиба, где $f''$ почти равна нулю
# и шаг $\frac{f'}{f''}$ огромен. Градиентный спуск медленнее, но всегда идёт вниз по склону.

# %% key="newton-widget-code"
def draw_paths(x0):
    grid = np.linspace(-2.5, 2.5, 201)
    fig = Figure(figsize=(6.4, 3.8), dpi=90)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.plot(grid, f(grid), color="0.6", label="f(x)")
    for path, style, color, name in [(descent_path(x0, 6), "o-", "tab:blue", "l04.newton.descent"),
                                     (newton_path(x0, 6), "s-", "tab:red", "l04.newton.newton")]:
        shown = path[np.abs(path) <= 2.5]
        ax.plot(shown, f(shown), style, color=color, markersize=5, alpha=0.75, label=t(name))
    ax.plot([x0], [f(x0)], "*", color="black", markersize=12, label="x₀")
    ax.set(xlim=(-2.5, 2.5), ylim=(-2.5, 3.0), xlabel=t("plot.x"))
    ax.set_title(t("l04.newton.title"), fontsize=10)
    ax.legend(loc="upper center", fontsize=8)
    return fig


def end_point(path):
    x = path[-1]
    if not np.isfinite(x):
        return "x = ∞"
    d1, d2 = x**3 - 2 * x + 0.5, 3 * x**2 - 2  # f'(x), f''(x)
    if abs(d1) > 1e-4:
        kind = "l04.newton.moving"
    else:
        kind = "l04.newton.min" if d2 > 0 else "l04.newton.max"
    return f"x = {x:.4f}, f′(x) = {d1:.4f}, f″(x) = {d2:.2f} ({t(kind)})"


start_slider = widgets.FloatSlider(value=2.0, min=-2.5, max=2.5, step=0.05, description=t("l04.newton.slider"),
                                   continuous_update=False, style={"description_width": "initial"})
paths_readout = widgets.HTML()
paths_image = widgets.Image(format="png")


def show_paths(change=None):
    x0 = start_slider.value
    paths_readout.value = t("l04.newton.readout", newton=end_point(newton_path(x0, 6)),
                            descent=end_point(descent_path(x0, 6)))
    buffer = io.BytesIO()
    draw_paths(x0).savefig(buffer, format="png")
    paths_image.value = buffer.getvalue()


start_slider.observe(show_paths, names="value")
show_paths()
widgets.VBox([start_slider, paths_readout, paths_image])

# %% [markdown] key="batch-jacobian-full" lang="en"
# ## Batch Jacobians
#
# A batch holds independent examples: row $b$ of a network's output depends only on row $b$ of
# its input. For a batch of 7 inputs with 5 features and 6 outputs each, the full Jacobian has
# shape (7, 6, 7, 5), but every block that pairs the output of one example with the input of
# another is zero. The picture shows it with the Jacobian flattened to 42 × 35: only the blocks on
# the diagonal hold anything.

# %% [markdown] key="batch-jacobian-full" lang="es" src="0d6c7d91"
# ## Jacobianos por lotes
#
# Un lote contiene ejemplos independientes: la fila $b$ de la salida de una red depende solo de la
# fila $b$ de su entrada. Para un lote de 7 entradas con 5 características y 6 salidas cada una,
# el jacobiano completo tiene forma (7, 6, 7, 5), pero todo bloque que empareja la salida de un
# ejemplo con la entrada de otro es cero. El dibujo lo muestra con el jacobiano aplanado a
# 42 × 35: solo los bloques de la diagonal contienen algo.

# %% [markdown] key="batch-jacobian-full" lang="pt" src="0d6c7d91"
# ## Jacobianas em lote
#
# Um lote contém exemplos independentes: a linha $b$ da saída de uma rede depende só da linha $b$
# da sua entrada. Para um lote de 7 entradas com 5 atributos e 6 saídas cada, a jacobiana
# completo tem formato (7, 6, 7, 5), mas todo bloco que junta a saída de um exemplo com a entrada
# de outro é zero. A figura mostra isso com a jacobiana achatada para 42 × 35: só os blocos da
# diagonal contêm alguma coisa.

# %% [markdown] key="batch-jacobian-full" lang="ru" src="0d6c7d91"
# ## Якобианы по батчу
#
# Батч состоит из независимых примеров: строка $b$ выхода сети зависит только от строки
# $b$ её входа. Для батча из 7 входов с 5 признаками и 6 выходами у каждого полный якобиан имеет
# форму (7, 6, 7, 5), но любой блок, связывающий выход одного примера со входом другого, равен
# нулю. На рисунке якобиан развёрнут в матрицу 42 × 35: что-то содержат только блоки на
# диагонали.

# %% key="batch-jacobian-full-code"
x = tf.random.normal([7, 5])
layer1 = tf.keras.layers.Dense(8, activation=tf.nn.elu)
layer2 = tf.keras.layers.Dense(6, activation=tf.nn.elu)

with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
    tape.watch(x)
    y = layer2(layer1(x))

j = tape.jacobian(y, x)
print("y:", y.shape, " x:", x.shape, " jacobian:", j.shape)

plt.figure(figsize=(4.2, 4.6))
plt.imshow(np.abs(tf.reshape(j, [42, 35]).numpy()) > 0, cmap="Greys")
plt.xlabel(t("l04.batch.source"))
plt.ylabel(t("l04.batch.target"))
plt.title(t("l04.batch.title"), fontsize=10)
plt.show()

# %% [markdown] key="batch-jacobian" lang="en"
# `tape.batch_jacobian(target, source)` computes only those diagonal blocks, one (6, 5) Jacobian
# per example: shape (7, 6, 5). They are the blocks `j[b, :, b, :]` of the full Jacobian, which
# `tf.einsum("bxby->bxy", j)` picks out:

# %% [markdown] key="batch-jacobian" lang="es" src="7c542a88"
# `tape.batch_jacobian(target, source)` calcula solo esos bloques diagonales, un jacobiano de
# (6, 5) por ejemplo: forma (7, 6, 5). Son los bloques `j[b, :, b, :]` del jacobiano completo, que
# `tf.einsum("bxby->bxy", j)` extrae:

# %% [markdown] key="batch-jacobian" lang="pt" src="7c542a88"
# `tape.batch_jacobian(target, source)` calcula só esses blocos diagonais, uma jacobiana (6, 5)
# por exemplo: formato (7, 6, 5). Eles são os blocos `j[b, :, b, :]` da jacobiana completa, que
# `tf.einsum("bxby->bxy", j)` extrai:

# %% [markdown] key="batch-jacobian" lang="ru" src="7c542a88"
# `tape.batch_jacobian(target, source)` вычисляет только эти диагональные блоки — по якобиану
# (6, 5) на пример: форма (7, 6, 5). Это блоки `j[b, :, b, :]` полного якобиана, и
# `tf.einsum("bxby->bxy", j)` их извлекает:

# %% key="batch-jacobian-code"
jb = tape.batch_jacobian(y, x)
print(t("l04.batch_shape", shape=jb.shape))

j_select = tf.einsum("bxby->bxy", j)
print("max |jb - j_select| =", tf.reduce_max(tf.abs(jb - j_select)).numpy())

# %% [markdown] key="batch-jacobian-sum" lang="en"
# Why is `batch_jacobian` cheaper? Because only the diagonal blocks are nonzero, adding up the
# Jacobian over a batch axis loses nothing. Summed over the *source's* batch axis, row $b$ keeps
# just the block of example $b$: that sum *is* the batch Jacobian. Summed over the *target's*
# batch axis, it is what a single backward pass gives: the gradient of
# $\sum_b y_{b,k}$ with respect to $x$ holds $\frac{\partial y_{b,k}}{\partial x_b}$ in row $b$. So
# `batch_jacobian` needs one backward pass per output feature (6), where `jacobian` needs one
# per output element (42).

# %% [markdown] key="batch-jacobian-sum" lang="es" src="161caf67"
# ¿Por qué `batch_jacobian` sale más barato? Como solo los bloques diagonales son distintos de
# cero, sumar el jacobiano sobre un eje de lote no pierde nada. Sumado sobre el eje de lote de la
# *fuente*, la fila $b$ conserva solo el bloque del ejemplo $b$: esa suma *es* el jacobiano por
# lotes. Sumado sobre el eje de lote del *objetivo*, es lo que da una sola pasada hacia atrás: el
# gradiente de $\sum_b y_{b,k}$ respecto de $x$ contiene $\frac{\partial y_{b,k}}{\partial x_b}$
# en la fila $b$. Así, `batch_jacobian` necesita una pasada hacia atrás por cada característica
# de salida (6), mientras que `jacobian` necesita una por cada elemento de la salida (42).

# %% [markdown] key="batch-jacobian-sum" lang="pt" src="161caf67"
# Por que `batch_jacobian` sai mais barato? Como só os blocos diagonais são diferentes de zero,
# somar a jacobiana sobre um eixo de lote não perde nada. Somada sobre o eixo de lote da *fonte*,
# a linha $b$ guarda só o bloco do exemplo $b$: essa soma *é* a jacobiana em lote. Somada sobre o
# eixo de lote do *alvo*, é o que uma única passagem para trás dá: o gradiente de
# $\sum_b y_{b,k}$ em relação a $x$ contém $\frac{\partial y_{b,k}}{\partial x_b}$ na linha $b$.
# Assim, `batch_jacobian` precisa de uma passagem para trás por atributo de saída (6), enquanto
# `jacobian` precisa de uma por elemento da saída (42).

# %% [markdown] key="batch-jacobian-sum" lang="ru" src="161caf67"
# Почему `batch_jacobian` дешевле? Раз ненулевые только диагональные блоки, суммирование
# якобиана по оси батча ничего не теряет. При суммировании по оси батча *источника* в строке
# $b$ остаётся только блок примера $b$: эта сумма и *есть* якобиан по батчу. При суммировании по
# оси батча *цели* получается ровно то, что даёт один обратный проход: градиент
# $\sum_b y_{b,k}$ по $x$ содержит в строке $b$ производные
# $\frac{\partial y_{b,k}}{\partial x_b}$. Поэтому `batch_jacobian` нужен один обратный проход на
# каждый выходной признак (6), а `jacobian` — на каждый элемент выхода (42).

# %% key="batch-jacobian-sum-code"
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
# diagonal. `batch_jacobian` sigue devolviendo algo de forma (7, 6, 5), pero ya no es el jacobiano
# de cada ejemplo:

# %% [markdown] key="batch-jacobian-mixing" lang="pt" src="7f1fada4"
# Esse raciocínio exige exemplos independentes. Uma operação que mistura o lote (aqui, subtrair
# a média do lote, como faz a normalização em lote) preenche os blocos fora da diagonal.
# `batch_jacobian` continua devolvendo algo de formato (7, 6, 5), mas isso já não é a jacobiana de
# cada exemplo:

# %% [markdown] key="batch-jacobian-mixing" lang="ru" src="7f1fada4"
# Это рассуждение работает только для независимых примеров. Операция, которая смешивает примеры батча
# (здесь — вычитание среднего по батчу, как в батч-нормализации), заполняет внедиагональные
# блоки. `batch_jacobian` по-прежнему возвращает что-то формы (7, 6, 5), но это уже не якобиан
# каждого примера:

# %% key="batch-jacobian-mixing-code"
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    z = layer2(layer1(x))
    z = z - tf.reduce_mean(z, axis=0)

diagonal_blocks = tf.einsum("bxby->bxy", tape.jacobian(z, x))
jb = tape.batch_jacobian(z, x)
print(t("l04.batch_shape", shape=jb.shape))
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
# unit vector. `tf.autodiff.ForwardAccumulator(primals, tangents)` does this (the *primals* are
# the points where everything is evaluated), and `acc.jvp(y)` reads it out. For $y = x^3$ at $x = (1, 2)$ along $v = (1, 0)$: $J v = (3 \cdot 1^2, 0) = (3, 0)$.

# %% [markdown] key="forward-mode" lang="es" src="1398475a"
# ## Modo directo
#
# Una pasada hacia atrás parte de una salida y da las derivadas de esa salida respecto de todas
# las entradas: una *fila* del jacobiano (para ser exactos, un producto vector-jacobiano). El
# *modo directo* (*forward mode*) va en el otro sentido: eliges una dirección $v$ para las
# entradas (la *tangente*), y mientras la función se ejecuta hacia adelante, cada resultado lleva
# consigo su propia derivada en la dirección $v$. Al final obtienes $J v$, un *producto
# jacobiano-vector* (JVP): una *columna* del jacobiano cuando $v$ es un vector unitario.
# `tf.autodiff.ForwardAccumulator(primals, tangents)` hace esto (los *primals* son los puntos en
# los que se evalúa), y `acc.jvp(y)` lee el resultado. Para $y = x^3$ en $x = (1, 2)$ a lo largo
# de $v = (1, 0)$: $J v = (3 \cdot 1^2, 0) = (3, 0)$.

# %% [markdown] key="forward-mode" lang="pt" src="1398475a"
# ## Modo direto
#
# Uma passagem para trás parte de uma saída e dá as derivadas dessa saída em relação a todas as
# entradas: uma *linha* da jacobiana (mais precisamente, um produto vetor-jacobiana). O *modo
# direto* (*forward mode*) vai no sentido contrário: você escolhe uma direção $v$ para as
# entradas (a *tangente*), e enquanto a função roda para a frente, cada resultado carrega a sua
# própria derivada na direção $v$. No fim você obtém $J v$, um *produto jacobiana-vetor* (JVP):
# uma *coluna* da jacobiana quando $v$ é um vetor unitário.
# `tf.autodiff.ForwardAccumulator(primals, tangents)` faz isso (os *primals* são os pontos em
# que se avalia), e `acc.jvp(y)` lê o resultado. Para $y = x^3$ em $x = (1, 2)$ ao longo de
# $v = (1, 0)$: $J v = (3 \cdot 1^2, 0) = (3, 0)$.

# %% [markdown] key="forward-mode" lang="ru" src="1398475a"
# ## Прямой режим
#
# Обратный проход начинается с одного выхода и даёт производные этого выхода по всем входам:
# одну *строку* якобиана (точнее, произведение вектора на якобиан). *Прямой режим* (*forward
# mode*) идёт в другую сторону: вы выбираете направление $v$ для входов (*касательный вектор*,
# *tangent*), и пока функция выполняется в прямом направлении, каждый результат несёт с собой
# свою производную вдоль $v$. В конце получается $J v$ — *произведение якобиана на вектор* (JVP):
# один *столбец* якобиана, если $v$ — единичный вектор. Это делает
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
# needed 201 backward passes; a single forward pass gives the same 201 numbers:

# %% [markdown] key="forward-vs-reverse" lang="es" src="7831d475"
# ¿Qué modo usar? El modo inverso cuesta una pasada por cada *salida*; el modo directo, una por
# cada *entrada*. Una pérdida tiene una salida y millones de entradas, y por eso para entrenar se
# usa el modo inverso. La sigmoide desplazada de antes es el caso opuesto: una entrada
# ($\delta$) y 201 salidas. `jacobian` necesitó 201 pasadas hacia atrás; una sola pasada hacia
# adelante da los mismos 201 números:

# %% [markdown] key="forward-vs-reverse" lang="pt" src="7831d475"
# Qual modo usar? O modo reverso custa uma passagem por *saída*; o modo direto, uma por
# *entrada*. Uma perda tem uma saída e milhões de entradas, e é por isso que o treinamento usa o
# modo reverso. A sigmoide deslocada de antes é o caso oposto: uma entrada ($\delta$) e 201
# saídas. `jacobian` precisou de 201 passagens para trás; uma única passagem para a frente dá os
# mesmos 201 números:

# %% [markdown] key="forward-vs-reverse" lang="ru" src="7831d475"
# Какой режим выбрать? Обратный режим стоит одного прохода на каждый *выход*, прямой — одного
# прохода на каждый *вход*. У функции потерь один выход и миллионы входов, поэтому при обучении
# используют обратный режим. Сдвинутая сигмоида выше — противоположный случай: один вход
# ($\delta$) и 201 выход. `jacobian` понадобился 201 обратный проход, а одного прямого прохода
# достаточно, чтобы получить тот же столбец из 201 числа:

# %% key="forward-vs-reverse-code"
x = tf.linspace(-10.0, 10.0, 201)
with tf.autodiff.ForwardAccumulator(primals=delta, tangents=tf.constant(1.0)) as acc:
    y = tf.nn.sigmoid(x + delta)

column = acc.jvp(y)
print("jvp:", column.shape, "   max |jvp - jacobian| =", np.abs(column.numpy() - dy_ddelta.numpy()).max())

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
# их число не зависит от размера $H$. Для $f(x) = \sum_i x_i^3$ при $x = (1, 2)$
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
# and saving models as SavedModel. None of them changes what a tape does: strings and integers
# are never differentiable (their gradient is `None`), and a `tf.data` iterator only hands each
# training step the batch it computes on.

# %% [markdown] key="scope" lang="es" src="2a68a2ee"
# ### Lo que minitape deja fuera
#
# Una parte de TensorFlow queda fuera del alcance de minitape, que deriva arrays numéricos en
# modo eager: los tensores de cadenas (`tf.strings`), las canalizaciones de `tf.data` con sus
# iteradores con estado y el guardado de modelos como SavedModel. Ninguno cambia lo que hace una
# cinta: las cadenas y los enteros nunca son diferenciables (su gradiente es `None`), y un
# iterador de `tf.data` solo entrega a cada paso de entrenamiento el lote con el que calcula.

# %% [markdown] key="scope" lang="pt" src="2a68a2ee"
# ### O que o minitape deixa de fora
#
# Uma parte do TensorFlow fica fora do escopo do minitape, que deriva arrays numéricos no modo
# eager: os tensores de strings (`tf.strings`), os pipelines de `tf.data` com os seus
# iteradores com estado e o salvamento de modelos como SavedModel. Nenhum deles muda o que uma
# fita faz: strings e inteiros nunca são diferenciáveis (o gradiente deles é `None`), e um
# iterador de `tf.data` só entrega a cada passo de treinamento o lote com que ele calcula.

# %% [markdown] key="scope" lang="ru" src="2a68a2ee"
# ### Что осталось за пределами minitape
#
# Часть TensorFlow выходит за рамки minitape, который дифференцирует числовые массивы в режиме
# eager: строковые тензоры (`tf.strings`), конвейеры `tf.data` с их итераторами, хранящими
# состояние, и сохранение моделей в формате SavedModel. Ни одна из этих частей не меняет того,
# что делает лента: строки и целые числа никогда не дифференцируемы (их градиент — `None`), а
# итератор `tf.data` лишь передаёт каждому шагу обучения батч, на котором тот считает.

# %% [markdown] key="exercises" lang="en"
# ## Exercises
#
# As before: complete each function, run its cell and then the `check` cell below it. The
# hidden checks call your functions at random points (and compare some answers with finite
# differences), so your code has to work in general, not only for the examples.

# %% [markdown] key="exercises" lang="es" src="7882db23"
# ## Ejercicios
#
# Como antes: completa cada función, ejecuta su celda y después la celda de `check` que hay
# debajo. Las comprobaciones ocultas llaman a tus funciones en puntos aleatorios (y comparan
# algunas respuestas con diferencias finitas), así que tu código tiene que funcionar en general,
# no solo para los ejemplos.

# %% [markdown] key="exercises" lang="pt" src="7882db23"
# ## Exercícios
#
# Como antes: complete cada função, execute a célula dela e depois a célula de `check` logo
# abaixo. As verificações ocultas chamam as suas funções em pontos aleatórios (e comparam algumas
# respostas com diferenças finitas), então o seu código precisa funcionar em geral, não só nos
# exemplos.

# %% [markdown] key="exercises" lang="ru" src="7882db23"
# ## Упражнения
#
# Как и раньше: допишите каждую функцию, выполните её ячейку, а затем ячейку с `check` под ней.
# Скрытые проверки вызывают ваши функции в случайных точках (и сравнивают некоторые ответы с
# конечными разностями), поэтому код должен работать в общем случае, а не только на примерах.

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
# $\left[\frac{dy}{dx}, \frac{d^2y}{dx^2}\right]$ para $y = x^2 \sin x$ en $x = x_0$ (un `float` de
# Python), ambas calculadas con dos `tf.GradientTape` anidadas. Por ejemplo, en $x_0 = 1$:
# $\frac{dy}{dx} = 2 \sin 1 + \cos 1 \approx 2.2232$ y
# $\frac{d^2y}{dx^2} = \sin 1 + 4 \cos 1 \approx 3.0026$.

# %% [markdown] key="ex1" lang="pt" src="0ab14263"
# ### Exercício 1 · Uma segunda derivada com fitas aninhadas (2 pontos)
#
# Escreva `first_and_second_derivative(x0)`, que devolve a lista
# $\left[\frac{dy}{dx}, \frac{d^2y}{dx^2}\right]$ para $y = x^2 \sin x$ em $x = x_0$ (um `float` do
# Python), ambas calculadas com duas `tf.GradientTape` aninhadas. Por exemplo, em $x_0 = 1$:
# $\frac{dy}{dx} = 2 \sin 1 + \cos 1 \approx 2.2232$ e
# $\frac{d^2y}{dx^2} = \sin 1 + 4 \cos 1 \approx 3.0026$.

# %% [markdown] key="ex1" lang="ru" src="0ab14263"
# ### Упражнение 1 · Вторая производная с помощью вложенных лент (2 балла)
#
# Напишите функцию `first_and_second_derivative(x0)`, которая возвращает список
# $\left[\frac{dy}{dx}, \frac{d^2y}{dx^2}\right]$ для $y = x^2 \sin x$ в точке $x = x_0$ (`float` в
# Python); обе производные вычислите двумя вложенными `tf.GradientTape`. Например, при $x_0 = 1$:
# $\frac{dy}{dx} = 2 \sin 1 + \cos 1 \approx 2.2232$ и
# $\frac{d^2y}{dx^2} = \sin 1 + 4 \cos 1 \approx 3.0026$.

# %% nbgrader="solution" grade_id="l04_ex1_solution"
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

# %% nbgrader="tests" grade_id="l04_ex1" points=2
from grader import check
check("l04_ex1")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l04_ex1")
### END HIDDEN TESTS

# %% [markdown] key="ex2" lang="en"
# ### Exercise 2 · A custom gradient that stays finite (2 points)
#
# Write `log1pexp_and_gradient(x)`. The argument `x` is a 1-D float32 tensor whose values can
# be far larger than 88, where $e^x$ overflows in float32. Inside it, define with
# `@tf.custom_gradient` a function `log1pexp(x)` whose value and gradient are both finite
# everywhere:
#
# - value: $\log(1 + e^x) = \max(x, 0) + \log\left(1 + e^{-|x|}\right)$ (check it for $x > 0$ by
#   factoring $e^x$ out of $1 + e^x$); use `tf.maximum`, `tf.abs` and `tf.math.log1p`, which
#   computes $\log(1 + u)$ accurately for small $u$;
# - gradient: `upstream` times $\sigma(x) = \frac{1}{1 + e^{-x}}$ (`tf.nn.sigmoid`).
#
# Then, with a tape that watches `x`, return the list `[y, dy_dx]` where `y = log1pexp(x)` and
# `dy_dx = tape.gradient(y, x)`.

# %% [markdown] key="ex2" lang="es" src="a1c76e6d"
# ### Ejercicio 2 · Un gradiente personalizado que se mantiene finito (2 puntos)
#
# Escribe `log1pexp_and_gradient(x)`. El argumento `x` es un tensor float32 de una dimensión cuyos
# valores pueden ser mucho mayores que 88, donde $e^x$ se desborda en float32. Dentro de la
# función, define con `@tf.custom_gradient` una función `log1pexp(x)` cuyo valor y cuyo gradiente
# sean finitos en todas partes:
#
# - valor: $\log(1 + e^x) = \max(x, 0) + \log\left(1 + e^{-|x|}\right)$ (compruébalo para $x > 0$
#   sacando $e^x$ factor común en $1 + e^x$); usa `tf.maximum`, `tf.abs` y `tf.math.log1p`, que
#   calcula $\log(1 + u)$ con precisión para $u$ pequeño;
# - gradiente: `upstream` multiplicado por $\sigma(x) = \frac{1}{1 + e^{-x}}$ (`tf.nn.sigmoid`).
#
# Después, con una cinta que observe `x`, devuelve la lista `[y, dy_dx]`, donde
# `y = log1pexp(x)` y `dy_dx = tape.gradient(y, x)`.

# %% [markdown] key="ex2" lang="pt" src="a1c76e6d"
# ### Exercício 2 · Um gradiente personalizado que continua finito (2 pontos)
#
# Escreva `log1pexp_and_gradient(x)`. O argumento `x` é um tensor float32 de uma dimensão cujos
# valores podem ser muito maiores que 88, onde $e^x$ estoura em float32. Dentro da função, defina
# com `@tf.custom_gradient` uma função `log1pexp(x)` cujo valor e cujo gradiente sejam finitos em
# toda parte:
#
# - valor: $\log(1 + e^x) = \max(x, 0) + \log\left(1 + e^{-|x|}\right)$ (confira para $x > 0$
#   colocando $e^x$ em evidência em $1 + e^x$); use `tf.maximum`, `tf.abs` e `tf.math.log1p`, que
#   calcula $\log(1 + u)$ com precisão para $u$ pequeno;
# - gradiente: `upstream` vezes $\sigma(x) = \frac{1}{1 + e^{-x}}$ (`tf.nn.sigmoid`).
#
# Depois, com uma fita que observe `x`, devolva a lista `[y, dy_dx]`, em que `y = log1pexp(x)` e
# `dy_dx = tape.gradient(y, x)`.

# %% [markdown] key="ex2" lang="ru" src="a1c76e6d"
# ### Упражнение 2 · Собственный градиент, который остаётся конечным (2 балла)
#
# Напишите функцию `log1pexp_and_gradient(x)`. Аргумент `x` — одномерный тензор float32, значения
# которого могут быть намного больше 88, где $e^x$ в float32 переполняется. Внутри неё определите
# с помощью `@tf.custom_gradient` функцию `log1pexp(x)`, у которой и значение, и градиент везде
# конечны:
#
# - значение: $\log(1 + e^x) = \max(x, 0) + \log\left(1 + e^{-|x|}\right)$ (проверьте это для
#   $x > 0$, вынеся $e^x$ за скобки в $1 + e^x$); используйте `tf.maximum`, `tf.abs` и
#   `tf.math.log1p`, которая точно вычисляет $\log(1 + u)$ при малых $u$;
# - градиент: `upstream`, умноженный на $\sigma(x) = \frac{1}{1 + e^{-x}}$ (`tf.nn.sigmoid`).
#
# Затем с помощью ленты, которая отслеживает `x`, верните список `[y, dy_dx]`, где
# `y = log1pexp(x)` и `dy_dx = tape.gradient(y, x)`.

# %% nbgrader="solution" grade_id="l04_ex2_solution"
def log1pexp_and_gradient(x):
    ### BEGIN SOLUTION
    @tf.custom_gradient
    def log1pexp(x):
        def backward(upstream):
            return upstream * tf.nn.sigmoid(x)

        return tf.maximum(x, 0.0) + tf.math.log1p(tf.exp(-tf.abs(x))), backward

    with tf.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    return [y, tape.gradient(y, x)]
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l04_ex2" points=2
from grader import check
check("l04_ex2")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l04_ex2")
### END HIDDEN TESTS

# %% [markdown] key="ex3" lang="en"
# ### Exercise 3 · The Hessian of a logistic loss (2 points)
#
# Logistic regression with weights $w$ (a `tf.Variable` of shape (n,)), inputs $x$ (shape
# (k, n)) and labels $y_i \in \{-1, +1\}$ (shape (k,)) minimizes
#
# $$L(w) = \frac{1}{k} \sum_i \log\left(1 + e^{-y_i\, x_i \cdot w}\right).$$
#
# Write `logistic_hessian(w, x, y)`, which returns the Hessian of $L$ with respect to $w$, of
# shape (n, n), computed with a nested tape and `jacobian`. `tf.linalg.matvec(x, w)` gives the
# vector of the $x_i \cdot w$, and `tf.math.softplus(z)` computes $\log(1 + e^z)$.

# %% [markdown] key="ex3" lang="es" src="59c69eba"
# ### Ejercicio 3 · El hessiano de una pérdida logística (2 puntos)
#
# La regresión logística con pesos $w$ (una `tf.Variable` de forma (n,)), entradas $x$ (forma
# (k, n)) y etiquetas $y_i \in \{-1, +1\}$ (forma (k,)) minimiza
#
# $$L(w) = \frac{1}{k} \sum_i \log\left(1 + e^{-y_i\, x_i \cdot w}\right).$$
#
# Escribe `logistic_hessian(w, x, y)`, que devuelve el hessiano de $L$ respecto de $w$, de forma
# (n, n), calculado con una cinta anidada y `jacobian`. `tf.linalg.matvec(x, w)` da el vector de
# los $x_i \cdot w$, y `tf.math.softplus(z)` calcula $\log(1 + e^z)$.

# %% [markdown] key="ex3" lang="pt" src="59c69eba"
# ### Exercício 3 · A hessiana de uma perda logística (2 pontos)
#
# A regressão logística com pesos $w$ (uma `tf.Variable` de formato (n,)), entradas $x$ (formato
# (k, n)) e rótulos $y_i \in \{-1, +1\}$ (formato (k,)) minimiza
#
# $$L(w) = \frac{1}{k} \sum_i \log\left(1 + e^{-y_i\, x_i \cdot w}\right).$$
#
# Escreva `logistic_hessian(w, x, y)`, que devolve a hessiana de $L$ em relação a $w$, de formato
# (n, n), calculada com uma fita aninhada e `jacobian`. `tf.linalg.matvec(x, w)` dá o vetor dos
# $x_i \cdot w$, e `tf.math.softplus(z)` calcula $\log(1 + e^z)$.

# %% [markdown] key="ex3" lang="ru" src="59c69eba"
# ### Упражнение 3 · Гессиан логистической функции потерь (2 балла)
#
# Логистическая регрессия с весами $w$ (`tf.Variable` формы (n,)), входами $x$ (форма (k, n)) и
# метками $y_i \in \{-1, +1\}$ (форма (k,)) минимизирует
#
# $$L(w) = \frac{1}{k} \sum_i \log\left(1 + e^{-y_i\, x_i \cdot w}\right).$$
#
# Напишите функцию `logistic_hessian(w, x, y)`, которая возвращает гессиан $L$ по $w$ формы
# (n, n), вычисленный с помощью вложенной ленты и `jacobian`. `tf.linalg.matvec(x, w)` даёт вектор
# из $x_i \cdot w$, а `tf.math.softplus(z)` вычисляет $\log(1 + e^z)$.

# %% nbgrader="solution" grade_id="l04_ex3_solution"
def logistic_hessian(w, x, y):
    ### BEGIN SOLUTION
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            loss = tf.reduce_mean(tf.math.softplus(-y * tf.linalg.matvec(x, w)))
        g = inner.gradient(loss, w)
    return outer.jacobian(g, w)
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l04_ex3" points=2
from grader import check
check("l04_ex3")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l04_ex3")
### END HIDDEN TESTS

# %% [markdown] key="ex4" lang="en"
# ### Exercise 4 · One Newton step (2 points)
#
# Write `newton_step(w, x, y)`, for the same loss: compute the gradient $g$ (shape (n,)) and the
# Hessian $H$ (shape (n, n)) at $w$, solve $H \Delta = g$ with `tf.linalg.solve` (it wants a
# right-hand side of shape (n, 1)), update the variable in place with
# `w.assign_sub(...)` and return `w`. Here $H = \frac{1}{k} x^\top D x$, where the diagonal matrix
# $D$ holds $\sigma(z_i)(1 - \sigma(z_i)) > 0$ ($\sigma$ is the sigmoid, $z_i = y_i\, x_i \cdot w$). The checks use inputs $x$ whose $n$ columns are
# linearly independent (full column rank), so $H$ is positive definite, hence invertible, and no
# $\varepsilon$ is needed. With fewer examples than weights ($k < n$), or a column that repeats
# another, $H$ would be singular.

# %% [markdown] key="ex4" lang="es" src="ea1b7dd4"
# ### Ejercicio 4 · Un paso de Newton (2 puntos)
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

# %% [markdown] key="ex4" lang="pt" src="ea1b7dd4"
# ### Exercício 4 · Um passo de Newton (2 pontos)
#
# Escreva `newton_step(w, x, y)`, para a mesma perda: calcule o gradiente $g$ (formato (n,)) e a
# hessiana $H$ (formato (n, n)) em $w$, resolva $H \Delta = g$ com `tf.linalg.solve` (que espera
# um lado direito de formato (n, 1)), atualize a variável no lugar com `w.assign_sub(...)` e
# devolva `w`. Aqui $H = \frac{1}{k} x^\top D x$, em que a matriz diagonal $D$ contém
# $\sigma(z_i)(1 - \sigma(z_i)) > 0$ ($\sigma$ é a sigmoide e $z_i = y_i\, x_i \cdot w$). As verificações usam entradas $x$ cujas $n$ colunas são
# linearmente independentes (posto coluna completo), então $H$ é definida positiva e, portanto,
# invertível: não é preciso $\varepsilon$. Com menos exemplos que pesos ($k < n$), ou com uma
# coluna que repete outra, $H$ seria singular.

# %% [markdown] key="ex4" lang="ru" src="ea1b7dd4"
# ### Упражнение 4 · Один шаг метода Ньютона (2 балла)
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

# %% nbgrader="solution" grade_id="l04_ex4_solution"
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

# %% nbgrader="tests" grade_id="l04_ex4" points=2
from grader import check
check("l04_ex4")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l04_ex4")
### END HIDDEN TESTS

# %% [markdown] key="ex5" lang="en"
# ### Exercise 5 · A Hessian-vector product: forward mode over a backward pass (2 points)
#
# Write `logistic_hvp(w, x, y, v)`, for the same loss: return $H v$ (shape (n,)), where `v` is a
# tensor of shape (n,), **without** building $H$: a `tf.autodiff.ForwardAccumulator` with primal
# `w` and tangent `v` around a tape that computes the gradient, as in the section on forward mode.

# %% [markdown] key="ex5" lang="es" src="e17e664e"
# ### Ejercicio 5 · Un producto hessiano-vector: modo directo sobre una pasada hacia atrás (2 puntos)
#
# Escribe `logistic_hvp(w, x, y, v)`, para la misma pérdida: devuelve $H v$ (forma (n,)), donde
# `v` es un tensor de forma (n,), **sin** construir $H$: un `tf.autodiff.ForwardAccumulator` con
# primal `w` y tangente `v` alrededor de una cinta que calcula el gradiente, como en la sección
# sobre el modo directo.

# %% [markdown] key="ex5" lang="pt" src="e17e664e"
# ### Exercício 5 · Um produto hessiana-vetor: modo direto sobre uma passagem para trás (2 pontos)
#
# Escreva `logistic_hvp(w, x, y, v)`, para a mesma perda: devolva $H v$ (formato (n,)), em que `v`
# é um tensor de formato (n,), **sem** construir $H$: um `tf.autodiff.ForwardAccumulator` com
# primal `w` e tangente `v` em volta de uma fita que calcula o gradiente, como na seção sobre o
# modo direto.

# %% [markdown] key="ex5" lang="ru" src="e17e664e"
# ### Упражнение 5 · Произведение гессиана на вектор: прямой режим поверх обратного (2 балла)
#
# Напишите функцию `logistic_hvp(w, x, y, v)` для той же функции потерь: верните $H v$ (форма
# (n,)), где `v` — тензор формы (n,), **не** строя $H$: используйте `tf.autodiff.ForwardAccumulator`
# с точкой (*primal*) `w` и касательным вектором `v` вокруг ленты, которая вычисляет градиент, как
# в разделе о прямом режиме.

# %% nbgrader="solution" grade_id="l04_ex5_solution"
def logistic_hvp(w, x, y, v):
    ### BEGIN SOLUTION
    with tf.autodiff.ForwardAccumulator(w, v) as acc:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.math.softplus(-y * tf.linalg.matvec(x, w)))
        g = tape.gradient(loss, w)
    return acc.jvp(g)
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l04_ex5" points=2
from grader import check
check("l04_ex5")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l04_ex5")
### END HIDDEN TESTS

# %% [markdown] key="ex6" lang="en"
# ### Exercise 6 · Rounding that lets the gradient through (2 points)
#
# Write `straight_through_gradient(x, t)`. `x` is a `tf.Variable` of shape (n,) and `t` a
# tensor of the same shape. With the straight-through rounding of this lesson,
# $q = x + \text{stop\_gradient}(\text{round}(x) - x)$, and
# $L = \sum_i (q_i - t_i)^2$, return $\frac{dL}{dx}$. Use `tf.stop_gradient`: with
# `tf.round(x)` alone the tape gives `None`. For example, for $x = [0.3, 1.7, -2.2]$ and
# $t = [1, 1, -1]$ the answer is $2(\text{round}(x) - t) = [-2, 2, -2]$.

# %% [markdown] key="ex6" lang="es" src="0f8c5d4d"
# ### Ejercicio 6 · Un redondeo que deja pasar el gradiente (2 puntos)
#
# Escribe `straight_through_gradient(x, t)`. `x` es una `tf.Variable` de forma (n,) y `t` un
# tensor de la misma forma. Con el redondeo *straight-through* de esta lección,
# $q = x + \text{stop\_gradient}(\text{round}(x) - x)$, y
# $L = \sum_i (q_i - t_i)^2$, devuelve $\frac{dL}{dx}$. Usa `tf.stop_gradient`: con
# `tf.round(x)` solo, la cinta da `None`. Por ejemplo, para $x = [0.3, 1.7, -2.2]$ y
# $t = [1, 1, -1]$ la respuesta es $2(\text{round}(x) - t) = [-2, 2, -2]$.

# %% [markdown] key="ex6" lang="pt" src="0f8c5d4d"
# ### Exercício 6 · Um arredondamento que deixa o gradiente passar (2 pontos)
#
# Escreva `straight_through_gradient(x, t)`. `x` é uma `tf.Variable` de formato (n,) e `t` um
# tensor do mesmo formato. Com o arredondamento *straight-through* desta lição,
# $q = x + \text{stop\_gradient}(\text{round}(x) - x)$, e
# $L = \sum_i (q_i - t_i)^2$, devolva $\frac{dL}{dx}$. Use `tf.stop_gradient`: só com
# `tf.round(x)`, a fita dá `None`. Por exemplo, para $x = [0.3, 1.7, -2.2]$ e
# $t = [1, 1, -1]$ a resposta é $2(\text{round}(x) - t) = [-2, 2, -2]$.

# %% [markdown] key="ex6" lang="ru" src="0f8c5d4d"
# ### Упражнение 6 · Округление, которое пропускает градиент (2 балла)
#
# Напишите функцию `straight_through_gradient(x, t)`. `x` — `tf.Variable` формы (n,), `t` —
# тензор той же формы. Для «сквозного» (straight-through) округления из этого урока,
# $q = x + \text{stop\_gradient}(\text{round}(x) - x)$, и
# $L = \sum_i (q_i - t_i)^2$ верните $\frac{dL}{dx}$. Используйте `tf.stop_gradient`: с одним
# `tf.round(x)` лента даёт `None`. Например, для $x = [0.3, 1.7, -2.2]$ и $t = [1, 1, -1]$
# ответ равен $2(\text{round}(x) - t) = [-2, 2, -2]$.

# %% nbgrader="solution" grade_id="l04_ex6_solution"
def straight_through_gradient(x, t):
    ### BEGIN SOLUTION
    with tf.GradientTape() as tape:
        q = x + tf.stop_gradient(tf.round(x) - x)
        loss = tf.reduce_sum((q - t) ** 2)
    return tape.gradient(loss, x)
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l04_ex6" points=2
from grader import check
check("l04_ex6")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l04_ex6")
### END HIDDEN TESTS

# %% [markdown] key="ex7" lang="en"
# ### Exercise 7 · Per-example Jacobians (2 points)
#
# Write `per_example_jacobians(w, x)`. `w` is a `tf.Variable` of shape (n, m) and `x` a tensor
# of shape (b, n) holding b independent examples. For $y = \tanh(x w)$, of shape (b, m), return
# the Jacobian of each example's output with respect to its own input,
# $\frac{\partial y_i}{\partial x_i}$, as one tensor of shape (b, m, n), computed with
# `tape.batch_jacobian`. `x` is a tensor: the tape has to be told to watch it.

# %% [markdown] key="ex7" lang="es" src="a72baab9"
# ### Ejercicio 7 · Jacobianos por ejemplo (2 puntos)
#
# Escribe `per_example_jacobians(w, x)`. `w` es una `tf.Variable` de forma (n, m) y `x` un
# tensor de forma (b, n) con b ejemplos independientes. Para $y = \tanh(x w)$, de forma (b, m),
# devuelve el jacobiano de la salida de cada ejemplo respecto de su propia entrada,
# $\frac{\partial y_i}{\partial x_i}$, como un solo tensor de forma (b, m, n), calculado con
# `tape.batch_jacobian`. `x` es un tensor: hay que decirle a la cinta que lo observe.

# %% [markdown] key="ex7" lang="pt" src="a72baab9"
# ### Exercício 7 · Jacobianas por exemplo (2 pontos)
#
# Escreva `per_example_jacobians(w, x)`. `w` é uma `tf.Variable` de formato (n, m) e `x` um
# tensor de formato (b, n) com b exemplos independentes. Para $y = \tanh(x w)$, de formato
# (b, m), devolva a jacobiana da saída de cada exemplo em relação à sua própria entrada,
# $\frac{\partial y_i}{\partial x_i}$, como um único tensor de formato (b, m, n), calculado
# com `tape.batch_jacobian`. `x` é um tensor: é preciso dizer à fita que o observe.

# %% [markdown] key="ex7" lang="ru" src="a72baab9"
# ### Упражнение 7 · Якобианы отдельных примеров (2 балла)
#
# Напишите функцию `per_example_jacobians(w, x)`. `w` — `tf.Variable` формы (n, m), `x` —
# тензор формы (b, n) из b независимых примеров. Для $y = \tanh(x w)$ формы (b, m) верните
# якобиан выхода каждого примера по его собственному входу,
# $\frac{\partial y_i}{\partial x_i}$, одним тензором формы (b, m, n), вычисленным с помощью
# `tape.batch_jacobian`. `x` — тензор: ленте нужно указать, что его надо отслеживать.

# %% nbgrader="solution" grade_id="l04_ex7_solution"
def per_example_jacobians(w, x):
    ### BEGIN SOLUTION
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.math.tanh(tf.matmul(x, w))
    return tape.batch_jacobian(y, x)
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l04_ex7" points=2
from grader import check
check("l04_ex7")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l04_ex7")
### END HIDDEN TESTS

# %% [markdown] key="ex8" lang="en"
# ### Exercise 8 · A vector-Jacobian product (2 points)
#
# Write `layer_vjp(w, x, u)`. `w` is a `tf.Variable` of shape (n, m), `x` a tensor of shape
# (b, n) and `u` a tensor of shape (b, m). For $y = \tanh(x w)$, return the list
# $[u^\top \frac{\partial y}{\partial x}, u^\top \frac{\partial y}{\partial w}]$, of shapes
# (b, n) and (n, m), from one `gradient` call with `output_gradients=u`, without computing a
# Jacobian.

# %% [markdown] key="ex8" lang="es" src="1f39c98c"
# ### Ejercicio 8 · Un producto vector-jacobiano (2 puntos)
#
# Escribe `layer_vjp(w, x, u)`. `w` es una `tf.Variable` de forma (n, m), `x` un tensor de forma
# (b, n) y `u` un tensor de forma (b, m). Para $y = \tanh(x w)$, devuelve la lista
# $[u^\top \frac{\partial y}{\partial x}, u^\top \frac{\partial y}{\partial w}]$, de formas
# (b, n) y (n, m), con una sola llamada a `gradient` con `output_gradients=u`, sin calcular
# ningún jacobiano.

# %% [markdown] key="ex8" lang="pt" src="1f39c98c"
# ### Exercício 8 · Um produto vetor-jacobiana (2 pontos)
#
# Escreva `layer_vjp(w, x, u)`. `w` é uma `tf.Variable` de formato (n, m), `x` um tensor de
# formato (b, n) e `u` um tensor de formato (b, m). Para $y = \tanh(x w)$, devolva a lista
# $[u^\top \frac{\partial y}{\partial x}, u^\top \frac{\partial y}{\partial w}]$, de formatos
# (b, n) e (n, m), com uma única chamada a `gradient` com `output_gradients=u`, sem calcular
# nenhuma jacobiana.

# %% [markdown] key="ex8" lang="ru" src="1f39c98c"
# ### Упражнение 8 · Произведение вектора на якобиан (2 балла)
#
# Напишите функцию `layer_vjp(w, x, u)`. `w` — `tf.Variable` формы (n, m), `x` — тензор формы
# (b, n), `u` — тензор формы (b, m). Для $y = \tanh(x w)$ верните список
# $[u^\top \frac{\partial y}{\partial x}, u^\top \frac{\partial y}{\partial w}]$ форм (b, n)
# и (n, m), вычисленный одним вызовом `gradient` с `output_gradients=u`, без вычисления
# якобиана.

# %% nbgrader="solution" grade_id="l04_ex8_solution"
def layer_vjp(w, x, u):
    ### BEGIN SOLUTION
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.math.tanh(tf.matmul(x, w))
    return tape.gradient(y, [x, w], output_gradients=u)
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l04_ex8" points=2
from grader import check
check("l04_ex8")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l04_ex8")
### END HIDDEN TESTS

# %% [markdown] key="summary" lang="en"
# ## Summary
#
# - `tape.stop_recording()` pauses one tape; `tape.reset()` makes it forget what it recorded;
#   `tf.stop_gradient(x)` turns one value into a constant for every tape.
# - `@tf.custom_gradient` returns a value and a `backward(upstream)` that returns
#   `upstream` times the local derivative, for each input. Use it to give an operation a
#   gradient, to clip or otherwise change a gradient, or to compute it stably; a stable value
#   needs a stable formula too. A function that reads Variables gives their gradients too, from
#   `backward(upstream, variables=...)`; `tf.RegisterGradient` and `tf.no_gradient` act on a
#   global registry by operation type, for new operation types.
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

# %% [markdown] key="summary" lang="es" src="ba608c98"
# ## Resumen
#
# - `tape.stop_recording()` pausa una cinta; `tape.reset()` le hace olvidar lo grabado;
#   `tf.stop_gradient(x)` convierte un valor en constante para todas las cintas.
# - `@tf.custom_gradient` devuelve un valor y un `backward(upstream)` que devuelve, para cada
#   entrada, `upstream` por la derivada local. Sirve para dar gradiente a una operación, para
#   recortar o modificar un gradiente, o para calcularlo de forma estable; un valor estable
#   necesita también una fórmula estable. Una función que lee Variables da también sus
#   gradientes, desde `backward(upstream, variables=...)`; `tf.RegisterGradient` y
#   `tf.no_gradient` actúan sobre un registro global por tipo de operación, para tipos nuevos.
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

# %% [markdown] key="summary" lang="pt" src="ba608c98"
# ## Resumo
#
# - `tape.stop_recording()` pausa uma fita; `tape.reset()` a faz esquecer o que gravou;
#   `tf.stop_gradient(x)` transforma um valor em constante para todas as fitas.
# - `@tf.custom_gradient` devolve um valor e um `backward(upstream)` que devolve, para cada
#   entrada, `upstream` vezes a derivada local. Serve para dar gradiente a uma operação, para
#   recortar ou modificar um gradiente, ou para calculá-lo de forma estável; um valor estável
#   também precisa de uma fórmula estável. Uma função que lê Variables dá também os gradientes
#   delas, a partir de `backward(upstream, variables=...)`; `tf.RegisterGradient` e
#   `tf.no_gradient` agem sobre um registro global por tipo de operação, para tipos novos.
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

# %% [markdown] key="summary" lang="ru" src="ba608c98"
# ## Итоги
#
# - `tape.stop_recording()` приостанавливает одну ленту; `tape.reset()` заставляет её забыть
#   записанное; `tf.stop_gradient(x)` превращает одно значение в константу для всех лент.
# - `@tf.custom_gradient` возвращает значение и `backward(upstream)`, который для каждого входа
#   возвращает `upstream`, умноженный на локальную производную. Так можно дать операции
#   градиент, обрезать или иначе изменить градиент или вычислить его устойчиво; для устойчивого
#   значения нужна ещё и устойчивая формула. Функция, которая читает переменные, отдаёт и их
#   градиенты — из `backward(upstream, variables=...)`; `tf.RegisterGradient` и
#   `tf.no_gradient` действуют на глобальный реестр по типу операции, для новых типов операций.
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

# %% [markdown] key="reflect" lang="en"
# ## Questions to think about
#
# These questions have no single right answer and are not graded. Write a few sentences for
# yourself, or talk them over with a classmate.
#
# 1. With `@tf.custom_gradient` you can return any gradient you like, even a wrong one. When is a
#    deliberately "wrong" gradient useful (the straight-through estimator is one case), and how
#    would you test that a custom gradient you meant to be exact really is?
# 2. A Jacobian costs one backward pass per output element; forward mode costs one pass per input
#    direction. For a loss with one output and a million weights, and for a function with a
#    million outputs and three inputs, which would you use, and why?
# 3. `batch_jacobian` returned zeros without complaint once the examples were mixed. Before you
#    trust a method that relies on an assumption about your data, what would you check?

# %% [markdown] key="reflect" lang="es" src="6a5b3b87"
# ## Preguntas para pensar
#
# Estas preguntas no tienen una única respuesta correcta y no se califican. Escribe unas frases
# para ti, o coméntalas con un compañero o una compañera.
#
# 1. Con `@tf.custom_gradient` puedes devolver el gradiente que quieras, incluso uno incorrecto.
#    ¿Cuándo es útil un gradiente «incorrecto» a propósito (el estimador *straight-through* es un
#    caso), y cómo comprobarías que un gradiente personalizado que querías exacto de verdad lo es?
# 2. Un jacobiano cuesta una pasada hacia atrás por elemento de la salida; el modo directo, una
#    pasada por dirección de entrada. Para una pérdida con una salida y un millón de pesos, y para
#    una función con un millón de salidas y tres entradas, ¿qué usarías y por qué?
# 3. `batch_jacobian` devolvió ceros sin protestar en cuanto los ejemplos se mezclaron. Antes de
#    fiarte de un método que se apoya en una suposición sobre tus datos, ¿qué comprobarías?

# %% [markdown] key="reflect" lang="pt" src="6a5b3b87"
# ## Perguntas para pensar
#
# Estas perguntas não têm uma única resposta certa e não valem nota. Escreva algumas frases para
# você mesmo, ou converse sobre elas com um colega.
#
# 1. Com `@tf.custom_gradient` você pode devolver o gradiente que quiser, até um errado. Quando um
#    gradiente "errado" de propósito é útil (o estimador *straight-through* é um caso), e como
#    você testaria que um gradiente personalizado que deveria ser exato realmente é?
# 2. Uma jacobiana custa uma passagem para trás por elemento da saída; o modo direto, uma passagem
#    por direção de entrada. Para uma perda com uma saída e um milhão de pesos, e para uma função
#    com um milhão de saídas e três entradas, o que você usaria, e por quê?
# 3. `batch_jacobian` devolveu zeros sem reclamar assim que os exemplos foram misturados. Antes de
#    confiar num método que depende de uma suposição sobre os seus dados, o que você verificaria?

# %% [markdown] key="reflect" lang="ru" src="6a5b3b87"
# ## Вопросы для размышления
#
# У этих вопросов нет единственного правильного ответа, и они не оцениваются. Напишите для себя
# несколько предложений или обсудите их с однокурсником.
#
# 1. С `@tf.custom_gradient` можно вернуть какой угодно градиент, даже неверный. Когда намеренно
#    «неверный» градиент полезен (один такой случай — оценка *straight-through*) и как проверить,
#    что собственный градиент, задуманный точным, действительно точен?
# 2. Якобиан стоит одного обратного прохода на каждый элемент выхода, прямой режим — одного
#    прохода на каждое направление входа. Что бы вы выбрали для функции потерь с одним выходом и
#    миллионом весов, а что — для функции с миллионом выходов и тремя входами? Почему?
# 3. `batch_jacobian` без всяких жалоб вернул нули, как только примеры смешались. Что бы вы
#    проверили, прежде чем доверять методу, который опирается на предположение о ваших данных?
