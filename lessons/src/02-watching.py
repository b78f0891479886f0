# ---
# jupyter:
#   minitape:
#     lesson: 02-watching
# ---

# %% [markdown] key="title" lang="en"
# # Lesson 2 · Controlling what the tape watches
#
# In lesson 1 the tape simply "saw" our variables. This lesson opens the box: which inputs a
# tape follows and which it ignores, how to change that, and what a tape costs while it keeps
# its record.
#
# In this lesson you will learn:
#
# - which inputs a tape watches on its own (trainable variables) and which it never does
#   (tensors, non-trainable variables);
# - how to watch a tensor with `tape.watch`, and how to watch *only* what you choose with
#   `watch_accessed_variables=False`;
# - how to get the gradient with respect to an intermediate result;
# - how to ask one tape several questions (`persistent=True`), and what that costs in memory.

# %% [markdown] key="title" lang="es" src="0a54396f"
# # Lección 2 · Controlar lo que observa la cinta
#
# En la lección 1 la cinta simplemente «veía» nuestras variables. En esta lección abrimos la
# caja: qué entradas observa una cinta y cuáles ignora, cómo cambiar eso y cuánto cuesta una
# cinta mientras conserva su grabación.
#
# En esta lección aprenderás:
#
# - qué entradas observa una cinta por su cuenta (las variables entrenables) y cuáles no observa
#   nunca por sí sola (los tensores y las variables no entrenables);
# - cómo observar un tensor con `tape.watch` y cómo observar *solo* lo que tú elijas con
#   `watch_accessed_variables=False`;
# - cómo obtener el gradiente respecto de un resultado intermedio;
# - cómo hacerle varias preguntas a una misma cinta (`persistent=True`) y cuánta memoria cuesta.

# %% [markdown] key="title" lang="pt" src="0a54396f"
# # Lição 2 · Controlando o que a fita observa
#
# Na lição 1 a fita simplesmente “enxergava” as nossas variáveis. Nesta lição vamos abrir a
# caixa: quais entradas uma fita observa e quais ela ignora, como mudar isso e quanto custa
# uma fita enquanto ela guarda a sua gravação.
#
# Nesta lição você vai aprender:
#
# - quais entradas uma fita observa por conta própria (as variáveis treináveis) e quais ela
#   nunca observa sozinha (os tensores e as variáveis não treináveis);
# - como observar um tensor com `tape.watch` e como observar *apenas* o que você escolher com
#   `watch_accessed_variables=False`;
# - como obter o gradiente em relação a um resultado intermediário;
# - como fazer várias perguntas a uma mesma fita (`persistent=True`) e quanta memória isso custa.

# %% [markdown] key="title" lang="ru" src="0a54396f"
# # Урок 2 · Что отслеживает лента и как этим управлять
#
# В уроке 1 лента просто «видела» наши переменные. Теперь заглянем внутрь: за какими входами
# лента следит, какие игнорирует, как это изменить и во что обходится лента, пока она хранит
# свою запись.
#
# В этом уроке вы узнаете:
#
# - какие входы лента отслеживает сама (обучаемые переменные), а какие сама не отслеживает
#   никогда (тензоры и необучаемые переменные);
# - как отследить тензор с помощью `tape.watch` и как отслеживать *только* то, что вы
#   выбрали, с помощью `watch_accessed_variables=False`;
# - как получить градиент по промежуточному результату;
# - как задать одной ленте несколько вопросов (`persistent=True`) и сколько памяти это стоит.

# %% key="setup-code"
import tracemalloc
import weakref

import ipywidgets as widgets
import matplotlib.pyplot as plt
import numpy as np

import minitape as tf
from lessons.figures import describe
from lessons.i18n import t

# %% [markdown] key="why" lang="en"
# ## Why a tape does not record everything
#
# A tape records an operation only when one of its inputs is *watched*. There are good reasons
# not to record everything:
#
# - the backward pass can only use what the forward pass recorded, so the tape must decide
#   *while your code runs* what it will need;
# - every recorded operation keeps its input and output tensors alive, so needless records
#   cost memory;
# - the usual question is "the gradient of the loss with respect to every trainable variable
#   of the model".
#
# Hence the default rule: as soon as a trainable `tf.Variable` is read inside the `with` block,
# the tape watches it. Let us put four kinds of inputs in front of a tape: a trainable Variable
# `x0`, a non-trainable Variable `x1`, a Variable plus a number `x2` (the sum is a Tensor) and a
# Tensor `x3`:

# %% [markdown] key="why" lang="es" src="faafa649"
# ## Por qué una cinta no lo graba todo
#
# Una cinta graba una operación solo cuando alguna de sus entradas está *observada*
# (*watched*). Hay buenas razones para no grabarlo todo:
#
# - la pasada hacia atrás solo puede usar lo que grabó la pasada hacia adelante, así que la
#   cinta tiene que decidir *mientras se ejecuta tu código* qué va a necesitar;
# - cada operación grabada mantiene vivos sus tensores de entrada y de salida, de modo que
#   grabar de más cuesta memoria;
# - la pregunta habitual es «el gradiente de la pérdida respecto de todas las variables
#   entrenables del modelo».
#
# De ahí la regla por defecto: en cuanto se lee una `tf.Variable` entrenable dentro del bloque
# `with`, la cinta la observa. Veamos cuatro tipos de entradas: una variable entrenable `x0`,
# una variable no entrenable `x1`, una variable más un número, `x2` (la suma es un tensor), y un
# tensor `x3`:

# %% [markdown] key="why" lang="pt" src="faafa649"
# ## Por que uma fita não grava tudo
#
# Uma fita grava uma operação apenas quando alguma das entradas está *observada* (*watched*).
# Há bons motivos para não gravar tudo:
#
# - a passagem para trás só pode usar o que a passagem para a frente gravou; por isso a fita
#   precisa decidir, *enquanto o seu código roda*, do que vai precisar;
# - cada operação gravada mantém vivos os seus tensores de entrada e de saída, então gravar
#   demais custa memória;
# - a pergunta mais comum é “o gradiente da perda em relação a todas as variáveis treináveis
#   do modelo”.
#
# Daí a regra padrão: assim que uma `tf.Variable` treinável é lida dentro do bloco `with`, a
# fita passa a observá-la. Vejamos quatro tipos de entrada: uma variável treinável `x0`, uma
# variável não treinável `x1`, uma variável somada a um número, `x2` (a soma é um tensor), e um
# tensor `x3`:

# %% [markdown] key="why" lang="ru" src="faafa649"
# ## Почему лента записывает не всё
#
# Лента записывает операцию, только если хотя бы один её вход *отслеживается* (*watched*).
# Записывать всё подряд незачем:
#
# - обратный проход может использовать лишь то, что записал прямой проход, поэтому лента
#   должна решить, что ей понадобится, *прямо во время работы вашего кода*;
# - каждая записанная операция удерживает в памяти свои входные и выходные тензоры, так что
#   лишние записи стоят памяти;
# - обычно нужен один ответ: «градиент функции потерь по всем обучаемым переменным модели».
#
# Отсюда правило по умолчанию: как только внутри блока `with` читается обучаемая
# `tf.Variable`, лента начинает её отслеживать. Возьмём входы четырёх видов:
# обучаемую переменную `x0`, необучаемую переменную `x1`, переменную плюс число `x2` (сумма —
# это уже тензор) и тензор `x3`:

# %% key="why-code"
x0 = tf.Variable(3.0, name="x0")
x1 = tf.Variable(3.0, name="x1", trainable=False)
x2 = tf.Variable(2.0, name="x2") + 1.0
x3 = tf.constant(3.0, name="x3")

with tf.GradientTape() as tape:
    y = x0**2 + x1**2 + x2**2 + x3**2

for name, g in zip(["x0", "x1", "x2", "x3"], tape.gradient(y, [x0, x1, x2, x3])):
    print(name, "->", g)

# %% [markdown] key="only-x0" lang="en"
# All four inputs equal 3 and all four enter $y$ the same way, yet only `x0` gets its
# $\frac{\partial y}{\partial x_0} = 2 \cdot 3 = 6$. The other three get `None`: for the tape,
# $y$ does not depend on them. The surprising one is `x2`: a Variable plus a number is no
# longer a Variable, it is a plain Tensor.

# %% [markdown] key="only-x0" lang="es" src="0c2d1c03"
# Las cuatro entradas valen 3 y las cuatro entran en $y$ de la misma manera; sin embargo, solo
# `x0` recibe su $\frac{\partial y}{\partial x_0} = 2 \cdot 3 = 6$. Las otras tres reciben
# `None`: para la cinta, $y$ no depende de ellas. La que sorprende es `x2`: una variable más un
# número ya no es una variable, sino un tensor corriente.

# %% [markdown] key="only-x0" lang="pt" src="0c2d1c03"
# As quatro entradas valem 3 e as quatro entram em $y$ do mesmo jeito; mesmo assim, só `x0`
# recebe o seu $\frac{\partial y}{\partial x_0} = 2 \cdot 3 = 6$. As outras três recebem
# `None`: para a fita, $y$ não depende delas. A surpresa é `x2`: uma variável somada a um
# número deixa de ser uma variável e vira um tensor comum.

# %% [markdown] key="only-x0" lang="ru" src="0c2d1c03"
# Все четыре входа равны 3 и входят в $y$ одинаково, но только `x0` получает свою производную
# $\frac{\partial y}{\partial x_0} = 2 \cdot 3 = 6$. Остальные три получают `None`: с точки
# зрения ленты $y$ от них не зависит. Неожиданнее всего случай `x2`: переменная плюс число —
# это уже не переменная, а обычный тензор.

# %% key="only-x0-code"
for name, value in zip(["x0", "x1", "x2", "x3"], [x0, x1, x2, x3]):
    print(f"{name}: {type(value).__name__:8}  trainable={getattr(value, 'trainable', None)}")

# %% [markdown] key="watched-variables" lang="en"
# `tape.watched_variables()` lists the variables the tape watched. It is the first thing to
# look at when a gradient is unexpectedly `None`:

# %% [markdown] key="watched-variables" lang="es" src="3cb9240a"
# `tape.watched_variables()` enumera las variables que observó la cinta. Es lo primero que
# conviene mirar cuando un gradiente sale `None` sin que lo esperes:

# %% [markdown] key="watched-variables" lang="pt" src="3cb9240a"
# `tape.watched_variables()` lista as variáveis que a fita observou. É a primeira coisa a
# conferir quando um gradiente sai `None` sem você esperar:

# %% [markdown] key="watched-variables" lang="ru" src="3cb9240a"
# `tape.watched_variables()` возвращает переменные, которые отслеживала лента. Именно сюда
# стоит заглянуть первым делом, когда градиент неожиданно оказался `None`:

# %% key="watched-variables-code"
[v.name for v in tape.watched_variables()]

# %% [markdown] key="watch" lang="en"
# ## Watching a tensor
#
# To differentiate with respect to a Tensor, ask the tape to watch it with `tape.watch(x)`
# before using it. This is how you get the gradient with respect to a model's *input* (for
# example, to see which pixels of an image a prediction is most sensitive to), since inputs are
# tensors, not variables:

# %% [markdown] key="watch" lang="es" src="19000a94"
# ## Observar un tensor
#
# Para derivar respecto de un tensor, pídele a la cinta que lo observe con `tape.watch(x)`
# antes de usarlo. Así se obtiene el gradiente respecto de la *entrada* de un modelo (por
# ejemplo, para ver a qué píxeles de una imagen es más sensible una predicción), porque las
# entradas son tensores, no variables:

# %% [markdown] key="watch" lang="pt" src="19000a94"
# ## Observando um tensor
#
# Para derivar em relação a um tensor, peça à fita que o observe com `tape.watch(x)` antes de
# usá-lo. É assim que se obtém o gradiente em relação à *entrada* de um modelo (por exemplo,
# para ver a quais pixels de uma imagem uma previsão é mais sensível), já que as entradas são
# tensores, e não variáveis:

# %% [markdown] key="watch" lang="ru" src="19000a94"
# ## Отслеживание тензора
#
# Чтобы дифференцировать по тензору, попросите ленту отслеживать его — вызовите
# `tape.watch(x)` до того, как он будет использован. Так получают градиент по *входу* модели
# (например, чтобы увидеть, к каким пикселям изображения предсказание чувствительнее всего):
# входные данные — это тензоры, а не переменные.

# %% key="watch-code"
x = tf.constant(3.0)

with tf.GradientTape() as tape:
    tape.watch(x)
    y = x**2

print(tape.gradient(y, x).numpy())  # dy/dx = 2x = 6

# %% [markdown] key="watch-frozen" lang="en"
# A non-trainable Variable holds a value that training must not change (a frozen layer, a
# running average). A tape never watches it on its own, but `tape.watch` works on it too:

# %% [markdown] key="watch-frozen" lang="es" src="a9379377"
# Una variable no entrenable guarda un valor que el entrenamiento no debe cambiar (una capa
# congelada, una media móvil). Una cinta nunca la observa por su cuenta, pero `tape.watch`
# también funciona con ella:

# %% [markdown] key="watch-frozen" lang="pt" src="a9379377"
# Uma variável não treinável guarda um valor que o treinamento não deve mudar (uma camada
# congelada, uma média móvel). Uma fita nunca a observa por conta própria, mas `tape.watch`
# também funciona com ela:

# %% [markdown] key="watch-frozen" lang="ru" src="a9379377"
# Необучаемая переменная хранит значение, которое обучение менять не должно (замороженный
# слой, скользящее среднее). Сама лента её никогда не отслеживает, но `tape.watch` работает и
# с ней:

# %% key="watch-frozen-code"
with tf.GradientTape() as tape:
    tape.watch(x1)
    y = x1**2

print(tape.gradient(y, x1).numpy())  # dy/dx1 = 2 * x1 = 6

# %% [markdown] key="watch-accessed" lang="en"
# ## Watching only what you choose
#
# The opposite switch exists too. With `watch_accessed_variables=False` the tape watches
# nothing on its own, only what you pass to `tape.watch`. Here the computation uses two
# variables, but we watch only `x1`:

# %% [markdown] key="watch-accessed" lang="es" src="65ca72fc"
# ## Observar solo lo que tú eliges
#
# También existe el interruptor contrario. Con `watch_accessed_variables=False` la cinta no
# observa nada por su cuenta: solo lo que le pases a `tape.watch`. Aquí el cálculo usa dos
# variables, pero solo observamos `x1`:

# %% [markdown] key="watch-accessed" lang="pt" src="65ca72fc"
# Também existe o interruptor oposto. Com `watch_accessed_variables=False` a fita não observa
# nada por conta própria: só o que você passar para `tape.watch`. Aqui o cálculo usa duas
# variáveis, mas observamos apenas `x1`:

# %% [markdown] key="watch-accessed" lang="ru" src="65ca72fc"
# ## Отслеживать только то, что вы выбрали
#
# Можно и наоборот. С `watch_accessed_variables=False` лента ничего не
# отслеживает сама — только то, что вы передали в `tape.watch`. Здесь в вычислении участвуют
# две переменные, но отслеживаем мы только `x1`:

# %% key="watch-accessed-code"
x0 = tf.Variable(0.0, name="x0")
x1 = tf.Variable(10.0, name="x1")

with tf.GradientTape(watch_accessed_variables=False) as tape:
    tape.watch(x1)
    y = tf.math.sin(x0) + tf.nn.softplus(x1)

grad = tape.gradient(y, {"x0": x0, "x1": x1})
print("dy/dx0:", grad["x0"])
print("dy/dx1:", grad["x1"].numpy())

# %% [markdown] key="watch-accessed-result" lang="en"
# `x0` was read but not watched, so its gradient is `None`, even though
# $\frac{\partial y}{\partial x_0} = \cos(0) = 1$. For `x1` we get the derivative of the
# softplus, $\sigma(10) \approx 0.99995$. The tape confirms it watched a single variable. This
# is how you compute gradients for just a part of a large model (say, its last layer) without
# recording everything else:

# %% [markdown] key="watch-accessed-result" lang="es" src="2934954f"
# `x0` se leyó pero no se observó, así que su gradiente es `None`, aunque
# $\frac{\partial y}{\partial x_0} = \cos(0) = 1$. Para `x1` obtenemos la derivada de la
# softplus, $\sigma(10) \approx 0{,}99995$. La cinta confirma que observó una sola variable. Así
# se calculan gradientes solo para una parte de un modelo grande (por ejemplo, su última capa)
# sin grabar todo lo demás:

# %% [markdown] key="watch-accessed-result" lang="pt" src="2934954f"
# `x0` foi lida, mas não observada; por isso o gradiente dela é `None`, embora
# $\frac{\partial y}{\partial x_0} = \cos(0) = 1$. Para `x1` obtemos a derivada da softplus,
# $\sigma(10) \approx 0{,}99995$. A fita confirma que observou uma única variável. É assim que se
# calculam gradientes só para uma parte de um modelo grande (digamos, a última camada) sem
# gravar todo o resto:

# %% [markdown] key="watch-accessed-result" lang="ru" src="2934954f"
# `x0` была прочитана, но не отслеживалась, поэтому её градиент равен `None`, хотя
# $\frac{\partial y}{\partial x_0} = \cos(0) = 1$. Для `x1` получаем производную softplus:
# $\sigma(10) \approx 0{,}99995$. Лента подтверждает, что отслеживала одну-единственную
# переменную. Так вычисляют градиенты только для части большой модели (скажем, для последнего
# слоя), не записывая всё остальное:

# %% key="watch-accessed-result-code"
[v.name for v in tape.watched_variables()]

# %% [markdown] key="explorer" lang="en"
# ## Explore: who gets a gradient?
#
# The function below differentiates $f = a \cdot b + c^2$ at $a = 2$, $b = 3$, $c = 4$, so the
# true partial derivatives are $\frac{\partial f}{\partial a} = b = 3$,
# $\frac{\partial f}{\partial b} = a = 2$ and $\frac{\partial f}{\partial c} = 2c = 8$. You
# choose what kind of object each input is, which ones go through `tape.watch`, and whether
# the tape watches accessed variables. For example, with a trainable `a`, a non-trainable `b`
# and a tensor `c`, only `a` gets its gradient:

# %% [markdown] key="explorer" lang="es" src="e29cf121"
# ## Explora: ¿quién recibe un gradiente?
#
# La función de abajo deriva $f = a \cdot b + c^2$ en $a = 2$, $b = 3$, $c = 4$, así que las
# derivadas parciales verdaderas son $\frac{\partial f}{\partial a} = b = 3$,
# $\frac{\partial f}{\partial b} = a = 2$ y $\frac{\partial f}{\partial c} = 2c = 8$. Tú eliges
# qué tipo de objeto es cada entrada, cuáles pasan por `tape.watch` y si la cinta observa las
# variables a las que se accede. Por ejemplo, con una `a` entrenable, una `b` no entrenable y un
# tensor `c`, solo `a` recibe su gradiente:

# %% [markdown] key="explorer" lang="pt" src="e29cf121"
# ## Explore: quem recebe um gradiente?
#
# A função abaixo deriva $f = a \cdot b + c^2$ em $a = 2$, $b = 3$, $c = 4$; portanto, as
# derivadas parciais verdadeiras são $\frac{\partial f}{\partial a} = b = 3$,
# $\frac{\partial f}{\partial b} = a = 2$ e $\frac{\partial f}{\partial c} = 2c = 8$. Você
# escolhe que tipo de objeto é cada entrada, quais passam por `tape.watch` e se a fita observa
# as variáveis acessadas. Por exemplo, com `a` treinável, `b` não treinável e `c` tensor, só
# `a` recebe o seu gradiente:

# %% [markdown] key="explorer" lang="ru" src="e29cf121"
# ## Исследуйте: кто получит градиент?
#
# Функция ниже дифференцирует $f = a \cdot b + c^2$ в точке $a = 2$, $b = 3$, $c = 4$, так что
# настоящие частные производные равны $\frac{\partial f}{\partial a} = b = 3$,
# $\frac{\partial f}{\partial b} = a = 2$ и $\frac{\partial f}{\partial c} = 2c = 8$. Вы
# выбираете, каким объектом будет каждый вход, какие входы пройдут через `tape.watch` и
# отслеживает ли лента переменные, к которым обращается код. Например, если `a` — обучаемая
# переменная, `b` — необучаемая, а `c` — тензор, градиент получит только `a`:

# %% key="explorer-code"
VALUES = {"a": 2.0, "b": 3.0, "c": 4.0}


def make_input(kind, value):
    if kind == "variable":
        return tf.Variable(value)
    if kind == "frozen":
        return tf.Variable(value, trainable=False)
    return tf.constant(value)


def watch_report(kinds, watched=(), watch_accessed=True):
    inputs = {name: make_input(kinds[name], value) for name, value in VALUES.items()}
    with tf.GradientTape(watch_accessed_variables=watch_accessed) as tape:
        for name in watched:
            tape.watch(inputs[name])
        f = inputs["a"] * inputs["b"] + inputs["c"] ** 2
    return tape.gradient(f, inputs)


watch_report({"a": "variable", "b": "frozen", "c": "tensor"})

# %% [markdown] key="explorer-widget" lang="en"
# Now try it yourself. Can you get all three gradients with `watch_accessed_variables`
# switched off? Which boxes does a trainable Variable need then?

# %% [markdown] key="explorer-widget" lang="es" src="9c97e37b"
# Ahora pruébalo tú. ¿Consigues los tres gradientes con `watch_accessed_variables`
# desactivado? ¿Qué casillas hay que marcar entonces para una variable entrenable?

# %% [markdown] key="explorer-widget" lang="pt" src="9c97e37b"
# Agora experimente você. Consegue obter os três gradientes com `watch_accessed_variables`
# desligado? Nesse caso, quais caixas de seleção precisam estar marcadas para uma variável
# treinável?

# %% [markdown] key="explorer-widget" lang="ru" src="9c97e37b"
# Теперь попробуйте сами. Удастся ли получить все три градиента при выключенном
# `watch_accessed_variables`? Какие флажки тогда нужны обучаемой переменной?

# %% key="explorer-widget-code"
kinds = [(t("l02.kind.variable"), "variable"), (t("l02.kind.frozen"), "frozen"),
         (t("l02.kind.tensor"), "tensor")]
kind_menus = {n: widgets.Dropdown(options=kinds, value="variable", description=n) for n in VALUES}
watch_boxes = {n: widgets.Checkbox(value=False, description=f"tape.watch({n})") for n in VALUES}
accessed_box = widgets.Checkbox(value=True, description="watch_accessed_variables")
table = widgets.HTML()


def show_gradients(change=None):
    grads = watch_report({n: kind_menus[n].value for n in VALUES},
                         [n for n in VALUES if watch_boxes[n].value], accessed_box.value)
    rows = "".join(
        f"<tr><td>∂f/∂{n}</td><td>{'<b style=color:#c00>None</b>' if g is None else g.numpy()}</td></tr>"
        for n, g in grads.items())
    table.value = (f"<p>f = a·b + c²,  a = 2, b = 3, c = 4</p><table><tr><th>{t('l02.explorer.partial')}</th>"
                   f"<th>{t('l02.explorer.gradient')}</th></tr>{rows}</table>")


for control in [*kind_menus.values(), *watch_boxes.values(), accessed_box]:
    control.observe(show_gradients, names="value")
show_gradients()
widgets.VBox([widgets.HBox([kind_menus[n], watch_boxes[n]]) for n in VALUES] + [accessed_box, table])

# %% [markdown] key="intermediate" lang="en"
# ## Gradients with respect to intermediate results
#
# Sources do not have to be inputs. Any tensor computed inside the `with` block from a watched
# one is on the tape, so you can ask for the gradient with respect to it. With $y = x^2$ and
# $z = y^2$, we have $\frac{dz}{dy} = 2y$, which is $18$ at $x = 3$:

# %% [markdown] key="intermediate" lang="es" src="7e1d1068"
# ## Gradientes respecto de resultados intermedios
#
# Las fuentes no tienen por qué ser entradas. Cualquier tensor calculado dentro del bloque
# `with` a partir de uno observado está en la cinta, así que puedes pedir el gradiente respecto
# de él. Con $y = x^2$ y $z = y^2$ tenemos $\frac{dz}{dy} = 2y$, que vale $18$ en $x = 3$:

# %% [markdown] key="intermediate" lang="pt" src="7e1d1068"
# ## Gradientes em relação a resultados intermediários
#
# As fontes não precisam ser entradas. Qualquer tensor calculado dentro do bloco `with` a
# partir de um tensor observado está na fita, então você pode pedir o gradiente em relação a
# ele. Com $y = x^2$ e $z = y^2$, temos $\frac{dz}{dy} = 2y$, que vale $18$ em $x = 3$:

# %% [markdown] key="intermediate" lang="ru" src="7e1d1068"
# ## Градиенты по промежуточным результатам
#
# Источники не обязаны быть входами. Любой тензор, вычисленный внутри блока `with` из
# отслеживаемых тензоров, записан на ленте, поэтому можно запросить градиент и по нему. Если $y = x^2$ и
# $z = y^2$, то $\frac{dz}{dy} = 2y$, то есть $18$ при $x = 3$:

# %% key="intermediate-code"
x = tf.constant(3.0)

with tf.GradientTape() as tape:
    tape.watch(x)
    y = x * x
    z = y * y

print(tape.gradient(z, y).numpy())  # dz/dy = 2y = 18

# %% [markdown] key="one-answer" lang="en"
# ## One tape, one answer
#
# Having answered, the tape above released its record. Asking it again, for instance for
# $\frac{dz}{dx}$, raises a `RuntimeError`:

# %% [markdown] key="one-answer" lang="es" src="b816125d"
# ## Una cinta, una respuesta
#
# Después de responder, la cinta de arriba liberó su grabación. Si le volvemos a preguntar, por
# ejemplo por $\frac{dz}{dx}$, se produce un `RuntimeError`:

# %% [markdown] key="one-answer" lang="pt" src="b816125d"
# ## Uma fita, uma resposta
#
# Depois de responder, a fita acima liberou a sua gravação. Se perguntarmos de novo, por
# exemplo por $\frac{dz}{dx}$, ocorre um `RuntimeError`:

# %% [markdown] key="one-answer" lang="ru" src="b816125d"
# ## Одна лента — один ответ
#
# Ответив, лента выше освободила свою запись. Если спросить её ещё раз, например о
# $\frac{dz}{dx}$, возникнет `RuntimeError`:

# %% key="one-answer-code"
try:
    tape.gradient(z, x)
except RuntimeError as error:
    print(t("l02.gloss.one_answer"))
    print("RuntimeError:", error)

# %% [markdown] key="several-sources" lang="en"
# If you know every question in advance, ask them in *one* call: a list of sources gives every
# gradient from a single backward pass. By the chain rule,
# $\frac{dz}{dx} = \frac{dz}{dy} \cdot \frac{dy}{dx} = 18 \cdot 6 = 108$:

# %% [markdown] key="several-sources" lang="es" src="b9a497b8"
# Si conoces todas las preguntas de antemano, hazlas en *una sola* llamada: una lista de
# fuentes da todos los gradientes con una única pasada hacia atrás. Por la regla de la cadena,
# $\frac{dz}{dx} = \frac{dz}{dy} \cdot \frac{dy}{dx} = 18 \cdot 6 = 108$:

# %% [markdown] key="several-sources" lang="pt" src="b9a497b8"
# Se você conhece todas as perguntas de antemão, faça-as em *uma única* chamada: uma lista de
# fontes dá todos os gradientes com uma só passagem para trás. Pela regra da cadeia,
# $\frac{dz}{dx} = \frac{dz}{dy} \cdot \frac{dy}{dx} = 18 \cdot 6 = 108$:

# %% [markdown] key="several-sources" lang="ru" src="b9a497b8"
# Если все вопросы известны заранее, задайте их *одним* вызовом: список источников даёт все
# градиенты за один обратный проход. По цепному правилу
# $\frac{dz}{dx} = \frac{dz}{dy} \cdot \frac{dy}{dx} = 18 \cdot 6 = 108$:

# %% key="several-sources-code"
with tf.GradientTape() as tape:
    tape.watch(x)
    y = x * x
    z = y * y

dz_dy, dz_dx = tape.gradient(z, [y, x])
print(dz_dy.numpy(), dz_dx.numpy())

# %% [markdown] key="persistent" lang="en"
# ## Persistent tapes
#
# When the questions are about different *targets*, or you only know the next question after
# seeing an answer, create the tape with `persistent=True`. A *persistent* tape keeps its
# record after `gradient`, so you may call `gradient` as many times as you like. It frees the
# record only when the tape object itself disappears, so drop it with `del tape` when you are
# done:

# %% [markdown] key="persistent" lang="es" src="d544ea8d"
# ## Cintas persistentes
#
# Cuando las preguntas son sobre *objetivos* distintos, o solo sabes cuál será la siguiente
# pregunta después de ver una respuesta, crea la cinta con `persistent=True`. Una cinta
# *persistente* conserva su grabación después de `gradient`, así que puedes llamar a
# `gradient` tantas veces como quieras. Solo libera la grabación cuando desaparece el propio
# objeto cinta; por eso, cuando termines, suéltala con `del tape`:

# %% [markdown] key="persistent" lang="pt" src="d544ea8d"
# ## Fitas persistentes
#
# Quando as perguntas são sobre *alvos* diferentes, ou você só sabe qual será a próxima
# pergunta depois de ver uma resposta, crie a fita com `persistent=True`. Uma fita
# *persistente* mantém a gravação depois de `gradient`, então você pode chamar `gradient`
# quantas vezes quiser. Ela só libera a gravação quando o próprio objeto fita deixa de existir;
# por isso, quando terminar, descarte-a com `del tape`:

# %% [markdown] key="persistent" lang="ru" src="d544ea8d"
# ## Персистентные ленты
#
# Если вопросы касаются разных *целей* или следующий вопрос становится понятен только после
# ответа на предыдущий, создайте ленту с `persistent=True`. *Персистентная* (*persistent*) лента
# сохраняет запись после вызова `gradient`, поэтому `gradient` можно
# вызывать сколько угодно раз. Запись освобождается, только когда исчезает сам объект ленты,
# так что, закончив, удалите его через `del tape`:

# %% key="persistent-code"
x = tf.constant([1.0, 3.0])

with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = x * x
    z = y * y

print(tape.gradient(z, x).numpy())  # dz/dx = 4x³ -> [4, 108]
print(tape.gradient(y, x).numpy())  # dy/dx = 2x  -> [2, 6]
del tape

# %% [markdown] key="chain-figure" lang="en"
# Three questions about one recording, and a picture of the answers: for $y = x^2$ and
# $z = y^2$, the curves $\frac{dz}{dy}$, $\frac{dy}{dx}$ and $\frac{dz}{dx}$ over a whole grid
# of points, all from one persistent tape. <!-- claim: l02.chain-figure --> The last line checks the chain rule at every point:
# $\frac{dz}{dx} = \frac{dz}{dy} \cdot \frac{dy}{dx}$.

# %% [markdown] key="chain-figure" lang="es" src="c0c4bd94"
# Tres preguntas sobre una misma grabación, y un dibujo de las respuestas: para $y = x^2$ y
# $z = y^2$, las curvas $\frac{dz}{dy}$, $\frac{dy}{dx}$ y $\frac{dz}{dx}$ sobre toda una
# malla de puntos, todas con una sola cinta persistente. <!-- claim: l02.chain-figure --> La última línea comprueba la regla de
# la cadena en cada punto: $\frac{dz}{dx} = \frac{dz}{dy} \cdot \frac{dy}{dx}$.

# %% [markdown] key="chain-figure" lang="pt" src="c0c4bd94"
# Três perguntas sobre a mesma gravação, e um desenho das respostas: para $y = x^2$ e
# $z = y^2$, as curvas $\frac{dz}{dy}$, $\frac{dy}{dx}$ e $\frac{dz}{dx}$ em toda uma grade
# de pontos, todas com uma única fita persistente. <!-- claim: l02.chain-figure --> A última linha confere a regra da cadeia em
# cada ponto: $\frac{dz}{dx} = \frac{dz}{dy} \cdot \frac{dy}{dx}$.

# %% [markdown] key="chain-figure" lang="ru" src="c0c4bd94"
# Три вопроса к одной записи и график с ответами: для $y = x^2$ и $z = y^2$ — кривые
# $\frac{dz}{dy}$, $\frac{dy}{dx}$ и $\frac{dz}{dx}$ на целой сетке точек, и всё это от одной
# персистентной ленты. <!-- claim: l02.chain-figure --> Последняя строка проверяет цепное правило в каждой точке:
# $\frac{dz}{dx} = \frac{dz}{dy} \cdot \frac{dy}{dx}$.

# %% key="chain-figure-code"
x = tf.linspace(-1.5, 1.5, 61)

with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = x * x
    z = y * y

dz_dy = tape.gradient(z, y).numpy()
dy_dx = tape.gradient(y, x).numpy()
dz_dx = tape.gradient(z, x).numpy()
del tape

plt.figure(figsize=(6.4, 3.6))
plt.plot(x.numpy(), dz_dy, label="dz/dy = 2y")
plt.plot(x.numpy(), dy_dx, label="dy/dx = 2x")
plt.plot(x.numpy(), dz_dx, ":", label="dz/dx = 4x³")
plt.axhline(0.0, color="0.8", linewidth=0.8, zorder=0)
plt.xlabel(t("plot.x"))
plt.title(t("l02.chain.title"))
plt.legend()
describe(t("l02.chain.alt"))
plt.show()

np.allclose(dz_dx, dz_dy * dy_dx)

# %% [markdown] key="memory" lang="en"
# ## What a tape keeps in memory
#
# To run the backward pass, a tape keeps the tensors each recorded operation needs: the
# derivative of $\sin(x)$ needs $x$, the derivative of $h \cdot h$ needs $h$. So a tensor that
# your code no longer refers to stays alive as long as the tape needs it. A *weak reference*
# lets us watch that happen without keeping the tensor alive ourselves. Below, `x` holds a
# million float32 numbers (4 MB); `probe` refers to `h` without keeping it alive; after
# `del h` our code has no name for `h` left, yet `probe()` still finds it: the tape holds it.

# %% [markdown] key="memory" lang="es" src="511bbc27"
# ## Lo que una cinta guarda en memoria
#
# Para hacer la pasada hacia atrás, una cinta guarda los tensores que necesita cada operación
# grabada: la derivada de $\sin(x)$ necesita $x$; la derivada de $h \cdot h$ necesita $h$. Así,
# un tensor al que tu código ya no hace referencia sigue vivo mientras la cinta lo necesite.
# Una *referencia débil* (*weak reference*) nos permite comprobarlo sin mantener nosotros vivo
# el tensor. Abajo, `x` contiene un millón de números float32 (4 MB); `probe` apunta a `h` sin
# mantenerlo vivo; tras `del h` nuestro código ya no tiene ningún nombre para `h` y, aun así,
# `probe()` lo sigue encontrando: lo retiene la cinta.

# %% [markdown] key="memory" lang="pt" src="511bbc27"
# ## O que uma fita guarda na memória
#
# Para fazer a passagem para trás, uma fita guarda os tensores de que cada operação gravada
# precisa: a derivada de $\sin(x)$ precisa de $x$; a derivada de $h \cdot h$ precisa de $h$.
# Assim, um tensor ao qual o seu código já não faz referência continua vivo enquanto a fita
# precisar dele. Uma *referência fraca* (*weak reference*) nos deixa ver isso acontecer sem que
# nós mesmos mantenhamos o tensor vivo. Abaixo, `x` contém um milhão de números float32 (4 MB);
# `probe` aponta para `h` sem mantê-lo vivo; depois de `del h` o nosso código não tem mais
# nenhum nome para `h` e, mesmo assim, `probe()` ainda o encontra: quem o retém é a fita.

# %% [markdown] key="memory" lang="ru" src="511bbc27"
# ## Что лента хранит в памяти
#
# Для обратного прохода лента хранит тензоры, нужные каждой записанной операции: производной
# $\sin(x)$ нужен $x$, производной $h \cdot h$ — сам $h$. Поэтому тензор, на который ваш код
# уже не ссылается, живёт, пока он нужен ленте. *Слабая ссылка* (*weak reference*) позволяет
# проследить за этим: сама она тензор в памяти не удерживает. Ниже `x` содержит миллион чисел
# float32 (4 МБ); `probe` ссылается на `h`, не удерживая его; после `del h` у нашего кода не
# остаётся ни одного имени для `h`, но `probe()` всё равно его находит: его удерживает лента.

# %% key="memory-code" tf="random"
x = tf.Variable(tf.random.normal([1_000_000]))

with tf.GradientTape() as tape:
    h = tf.math.sin(x)
    loss = tf.reduce_sum(h * h)

probe = weakref.ref(h)
del h
probe() is not None

# %% [markdown] key="memory-freed" lang="en"
# A tape that is not persistent lets go of its record as soon as `gradient` returns. This is
# why it answers only once, and why it is the default: in training, the tensors recorded in a
# forward pass (the activations of every layer for a whole batch) often take more memory than
# the model itself, and they are released right after each step.

# %% [markdown] key="memory-freed" lang="es" src="949b5b2f"
# Una cinta que no es persistente suelta su grabación en cuanto `gradient` termina. Por eso
# responde una sola vez, y por eso es la opción por defecto: al entrenar, los tensores grabados
# en una pasada hacia adelante (las activaciones de todas las capas para todo un lote) suelen
# ocupar más memoria que el propio modelo, y se liberan justo después de cada paso.

# %% [markdown] key="memory-freed" lang="pt" src="949b5b2f"
# Uma fita que não é persistente solta a gravação assim que `gradient` termina. É por isso que
# ela responde uma vez só, e é por isso que esse é o padrão: no treinamento, os tensores gravados em
# uma passagem para a frente (as ativações de todas as camadas para um lote inteiro) costumam
# ocupar mais memória que o próprio modelo, e são liberados logo depois de cada passo.

# %% [markdown] key="memory-freed" lang="ru" src="949b5b2f"
# Неперсистентная лента удаляет свою запись, как только `gradient` вернул результат. Именно
# поэтому она отвечает только один раз и именно поэтому так сделано по умолчанию: при обучении
# тензоры, записанные за прямой проход (активации всех слоёв для целого батча), часто занимают
# больше памяти, чем сама модель, и освобождаются сразу после каждого шага.

# %% key="memory-freed-code" tf="random"
grad = tape.gradient(loss, x)
probe() is None

# %% [markdown] key="memory-figure" lang="en"
# Let us measure it. Python's `tracemalloc` counts the bytes allocated and not yet freed. We
# run the same computation with a default tape and with a persistent one, and note how much
# memory stays in use after the forward pass, after `gradient`, and after `del tape`:

# %% [markdown] key="memory-figure" lang="es" src="9432bcc1"
# Vamos a medirlo. El módulo `tracemalloc` de Python cuenta los bytes reservados y todavía no
# liberados. Ejecutamos el mismo cálculo con una cinta normal y con una persistente, y anotamos
# cuánta memoria sigue ocupada después de la pasada hacia adelante, después de `gradient` y
# después de `del tape`:

# %% [markdown] key="memory-figure" lang="pt" src="9432bcc1"
# Vamos medir. O módulo `tracemalloc` do Python conta os bytes alocados e ainda não liberados.
# Rodamos o mesmo cálculo com uma fita padrão e com uma persistente e anotamos quanta memória
# continua ocupada depois da passagem para a frente, depois de `gradient` e depois de
# `del tape`:

# %% [markdown] key="memory-figure" lang="ru" src="9432bcc1"
# Измерим это. Модуль Python `tracemalloc` подсчитывает байты, которые выделены и ещё не
# освобождены. Выполним одно и то же вычисление с обычной и с персистентной лентой и запишем,
# сколько памяти остаётся занятым после прямого прохода, после `gradient` и после `del tape`:

# %% key="memory-figure-code" tf="differs"
def memory_held(persistent):
    x = tf.Variable(tf.random.normal([1_000_000]))
    tracemalloc.start()
    start = tracemalloc.get_traced_memory()[0]
    held = lambda: (tracemalloc.get_traced_memory()[0] - start) / 2**20
    with tf.GradientTape(persistent=persistent) as tape:
        h = tf.math.sin(x)
        loss = tf.reduce_sum(h * h)
    del h
    after_forward = held()
    grad = tape.gradient(loss, x)
    del grad
    after_gradient = held()
    del tape
    after_del = held()
    tracemalloc.stop()
    return [after_forward, after_gradient, after_del]


default, persistent = memory_held(False), memory_held(True)
stages = [t("l02.memory.after_forward"), t("l02.memory.after_gradient"), t("l02.memory.after_del")]
positions = np.arange(len(stages))
plt.figure(figsize=(6.4, 3.6))
bars = plt.bar(positions - 0.2, default, width=0.4, label="GradientTape()")
plt.bar_label(bars, fmt="%.1f")
bars = plt.bar(positions + 0.2, persistent, width=0.4, hatch="//", label="GradientTape(persistent=True)")
plt.bar_label(bars, fmt="%.1f")
plt.xticks(positions, stages, fontsize=9)
plt.ylim(0, 1.5 * max(default + persistent))
plt.ylabel(t("l02.memory.ylabel"))
plt.title(t("l02.memory.title"), fontsize=10)
plt.legend(loc="upper right")
describe(t("l02.memory.alt"))
plt.show()

print("GradientTape():               ", np.round(default, 1), "MiB")
print("GradientTape(persistent=True):", np.round(persistent, 1), "MiB")

# %% [markdown] key="memory-lesson" lang="en"
# After the forward pass both tapes hold about 7.6 MiB: the two recorded tensors $h$ and
# $h \cdot h$, a million float32 numbers each. The default tape drops them during `gradient`;
# the persistent one keeps them until `del tape`. Two habits follow: put only the code you need
# to differentiate inside the `with` block, and use `persistent=True` only when you really ask
# several questions, deleting the tape right after.
#
# What exactly a tape keeps is up to the engine; the figure measures minitape. <!-- claim: l02.memory-minitape -->
# TensorFlow knows, for each kind of operation, which inputs and outputs its gradient will read
# (the gradient of `tf.nn.relu` needs only the output, that of `tf.math.sin` only the input), and
# records only those. <!-- claim: l02.tf-keeps-what-gradients-read --> Its bars would therefore have other
# heights, and `tracemalloc` would not even see them: TensorFlow allocates its tensors outside
# Python, so under TensorFlow this cell measures about 0 MiB at every stage. <!-- claim: l02.memory-tf-invisible -->
# The two habits hold for both engines.

# %% [markdown] key="memory-lesson" lang="es" src="49b1e15e"
# Después de la pasada hacia adelante, las dos cintas retienen unos 7,6 MiB: los dos tensores
# grabados, $h$ y $h \cdot h$, de un millón de números float32 cada uno. La cinta normal los
# suelta durante `gradient`; la persistente los conserva hasta `del tape`. De aquí salen dos
# buenos hábitos: mete en el bloque `with` solo el código que necesitas derivar, y usa
# `persistent=True` solo cuando de verdad vayas a hacer varias preguntas, borrando la cinta
# justo después.
#
# Qué guarda exactamente una cinta depende de cada motor; la figura mide minitape. <!-- claim: l02.memory-minitape -->
# TensorFlow sabe, para cada tipo de operación, qué entradas y salidas va a leer su gradiente
# (el de `tf.nn.relu` solo necesita la salida; el de `tf.math.sin`, solo la entrada), y guarda
# solo esas. <!-- claim: l02.tf-keeps-what-gradients-read --> Por eso sus barras tendrían otra altura, y
# `tracemalloc` ni siquiera las vería: TensorFlow reserva la memoria de sus tensores fuera de
# Python, así que con TensorFlow esta celda mide unos 0 MiB en cada momento. <!-- claim: l02.memory-tf-invisible -->
# Los dos hábitos valen para los dos motores.

# %% [markdown] key="memory-lesson" lang="pt" src="49b1e15e"
# Depois da passagem para a frente, as duas fitas retêm cerca de 7,6 MiB: os dois tensores
# gravados, $h$ e $h \cdot h$, com um milhão de números float32 cada. A fita padrão os solta
# durante `gradient`; a persistente os mantém até `del tape`. Daí vêm dois bons hábitos:
# coloque no bloco `with` apenas o código que você precisa derivar, e use `persistent=True` só
# quando for mesmo fazer várias perguntas, apagando a fita logo em seguida.
#
# O que exatamente uma fita guarda depende de cada motor; a figura mede o minitape. <!-- claim: l02.memory-minitape -->
# O TensorFlow sabe, para cada tipo de operação, quais entradas e saídas o gradiente dela vai
# ler (o de `tf.nn.relu` só precisa da saída; o de `tf.math.sin`, só da entrada), e guarda só
# essas. <!-- claim: l02.tf-keeps-what-gradients-read --> Por isso as barras dele teriam outra altura, e o
# `tracemalloc` nem as veria: o TensorFlow reserva a memória dos seus tensores fora do Python,
# então com o TensorFlow esta célula mede cerca de 0 MiB em cada momento. <!-- claim: l02.memory-tf-invisible -->
# Os dois hábitos valem para os dois motores.

# %% [markdown] key="memory-lesson" lang="ru" src="49b1e15e"
# После прямого прохода обе ленты удерживают около 7,6 МиБ: два записанных тензора, $h$ и
# $h \cdot h$, по миллиону чисел float32 в каждом. Обычная лента освобождает их во время
# `gradient`, персистентная хранит до `del tape`. Отсюда две полезные привычки: помещайте в
# блок `with` только тот код, который нужно дифференцировать, и используйте `persistent=True`,
# лишь когда действительно задаёте несколько вопросов, удаляя ленту сразу после них.
#
# Что именно хранит лента, решает сам движок; на рисунке измерен minitape. <!-- claim: l02.memory-minitape -->
# TensorFlow знает для каждого вида операции, какие входы и выходы прочитает её градиент
# (градиенту `tf.nn.relu` нужен только выход, градиенту `tf.math.sin` — только вход), и
# сохраняет на ленте только их. <!-- claim: l02.tf-keeps-what-gradients-read --> Поэтому столбики у него были бы другой
# высоты, и `tracemalloc` их бы даже не увидел: TensorFlow выделяет память под тензоры вне
# Python, так что с TensorFlow эта ячейка на каждом этапе показывает около 0 МиБ. <!-- claim: l02.memory-tf-invisible -->
# Обе привычки верны для обоих движков.

# %% [markdown] key="exercises" lang="en"
# ## Exercises
#
# As in lesson 1: complete each function, run its cell, then run the `check(...)` cell below
# it. Hidden checks call your function again at random points when your work is graded.

# %% [markdown] key="exercises" lang="es" src="0411aee4"
# ## Ejercicios
#
# Como en la lección 1: completa cada función, ejecuta su celda y después la celda con
# `check(...)` que hay debajo. Al calificar, unas comprobaciones ocultas vuelven a llamar a tu
# función en puntos aleatorios.

# %% [markdown] key="exercises" lang="pt" src="0411aee4"
# ## Exercícios
#
# Como na lição 1: complete cada função, execute a célula dela e depois a célula com
# `check(...)` logo abaixo. Na correção, verificações ocultas chamam a sua função de novo em
# pontos aleatórios.

# %% [markdown] key="exercises" lang="ru" src="0411aee4"
# ## Упражнения
#
# Как и в уроке 1: допишите каждую функцию, выполните её ячейку, а затем ячейку с
# `check(...)` под ней. При оценивании скрытые проверки снова вызовут вашу функцию в случайных
# точках.

# %% [markdown] key="ex1" lang="en"
# ### Exercise 1 · The gradient with respect to an input (2 points)
#
# Write `input_gradient(w, x)`. `w` is a trainable `tf.Variable` of shape (n, m) and `x` a
# batch of inputs of shape (k, n), given as a *Tensor* (`tf.constant`). Return the gradient of
#
# $$f = \sum_{i,j} \tanh\big((x w)_{ij}\big)$$
#
# with respect to `x` (shape (k, n)). Hints: `tf.matmul(x, w)` computes $x w$; remember which
# inputs a tape watches on its own.

# %% [markdown] key="ex1" lang="es" src="f6653d45"
# ### Ejercicio 1 · El gradiente respecto de una entrada (2 puntos)
#
# Escribe `input_gradient(w, x)`. `w` es una `tf.Variable` entrenable de forma (n, m) y `x`,
# un lote de entradas de forma (k, n) que llega como *Tensor* (`tf.constant`). Devuelve el
# gradiente de
#
# $$f = \sum_{i,j} \tanh\big((x w)_{ij}\big)$$
#
# respecto de `x` (forma (k, n)). Pistas: `tf.matmul(x, w)` calcula $x w$; recuerda qué
# entradas observa una cinta por su cuenta.

# %% [markdown] key="ex1" lang="pt" src="f6653d45"
# ### Exercício 1 · O gradiente em relação a uma entrada (2 pontos)
#
# Escreva `input_gradient(w, x)`. `w` é uma `tf.Variable` treinável de formato (n, m) e `x`,
# um lote de entradas de formato (k, n) que chega como *Tensor* (`tf.constant`). Devolva o
# gradiente de
#
# $$f = \sum_{i,j} \tanh\big((x w)_{ij}\big)$$
#
# em relação a `x` (formato (k, n)). Dicas: `tf.matmul(x, w)` calcula $x w$; lembre-se de
# quais entradas uma fita observa por conta própria.

# %% [markdown] key="ex1" lang="ru" src="f6653d45"
# ### Упражнение 1 · Градиент по входным данным (2 балла)
#
# Напишите функцию `input_gradient(w, x)`. `w` — обучаемая `tf.Variable` формы (n, m), `x` —
# батч входных данных формы (k, n), переданный как *тензор* (`tf.constant`). Верните градиент
#
# $$f = \sum_{i,j} \tanh\big((x w)_{ij}\big)$$
#
# по `x` (форма (k, n)). Подсказки: `tf.matmul(x, w)` вычисляет $x w$; вспомните, какие входы
# лента отслеживает сама.

# %% nbgrader="solution" grade_id="l02_ex1_solution"
def input_gradient(w, x):
    ### BEGIN SOLUTION
    with tf.GradientTape() as tape:
        tape.watch(x)
        f = tf.reduce_sum(tf.math.tanh(tf.matmul(x, w)))
    return tape.gradient(f, x)
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l02_ex1" points=2
from grader import check
check("l02_ex1")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l02_ex1")
### END HIDDEN TESTS

# %% [markdown] key="ex2" lang="en"
# ### Exercise 2 · An intermediate result (2 points)
#
# Write `hidden_gradients(w, x, targets)`. `w` is a `tf.Variable` of shape (n, m), `x` a
# tensor of shape (k, n) and `targets` a tensor of shape (k, m). With the intermediate result
# $h = x w$ and the loss
#
# $$L = \operatorname{mean}\big((\sigma(h) - \text{targets})^2\big),$$
#
# where $\sigma$ is `tf.nn.sigmoid`, return the list `[dL/dh, dL/dw]`. The first gradient tells
# how the loss reacts to each pre-activation of the layer.

# %% [markdown] key="ex2" lang="es" src="98490706"
# ### Ejercicio 2 · Un resultado intermedio (2 puntos)
#
# Escribe `hidden_gradients(w, x, targets)`. `w` es una `tf.Variable` de forma (n, m), `x`
# un tensor de forma (k, n) y `targets` un tensor de valores objetivo de forma (k, m). Con el
# resultado intermedio $h = x w$ y la pérdida
#
# $$L = \operatorname{mean}\big((\sigma(h) - \text{targets})^2\big),$$
#
# donde $\sigma$ es `tf.nn.sigmoid`, devuelve la lista `[dL/dh, dL/dw]`. El primer gradiente
# dice cómo reacciona la pérdida a cada preactivación de la capa.

# %% [markdown] key="ex2" lang="pt" src="98490706"
# ### Exercício 2 · Um resultado intermediário (2 pontos)
#
# Escreva `hidden_gradients(w, x, targets)`. `w` é uma `tf.Variable` de formato (n, m), `x`
# um tensor de formato (k, n) e `targets` um tensor de valores-alvo (rótulos) de formato (k, m). Com o resultado
# intermediário $h = x w$ e a perda
#
# $$L = \operatorname{mean}\big((\sigma(h) - \text{targets})^2\big),$$
#
# em que $\sigma$ é `tf.nn.sigmoid`, devolva a lista `[dL/dh, dL/dw]`. O primeiro gradiente
# mostra como a perda reage a cada pré-ativação da camada.

# %% [markdown] key="ex2" lang="ru" src="98490706"
# ### Упражнение 2 · Промежуточный результат (2 балла)
#
# Напишите функцию `hidden_gradients(w, x, targets)`. `w` — `tf.Variable` формы (n, m),
# `x` — тензор формы (k, n), `targets` — тензор целевых значений формы (k, m). Для
# промежуточного результата $h = x w$ и функции потерь
#
# $$L = \operatorname{mean}\big((\sigma(h) - \text{targets})^2\big),$$
#
# где $\sigma$ — это `tf.nn.sigmoid`, верните список `[dL/dh, dL/dw]`. Первый градиент
# показывает, как потери реагируют на каждую предактивацию слоя.

# %% nbgrader="solution" grade_id="l02_ex2_solution"
def hidden_gradients(w, x, targets):
    ### BEGIN SOLUTION
    with tf.GradientTape() as tape:
        h = tf.matmul(x, w)
        loss = tf.reduce_mean((tf.nn.sigmoid(h) - targets) ** 2)
    return tape.gradient(loss, [h, w])
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l02_ex2" points=2
from grader import check
check("l02_ex2")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l02_ex2")
### END HIDDEN TESTS

# %% [markdown] key="ex3" lang="en"
# ### Exercise 3 · Three questions to one persistent tape (3 points)
#
# A loss often has parts, and it helps to see how strongly each part pulls on the weights.
# Write `loss_parts_gradients(w, x, y, lam)`: `w` is a `tf.Variable` of shape (n,), `x` a
# tensor of shape (k, n), `y` a tensor of shape (k,) and `lam` a number. Inside one persistent
# tape compute
#
# $$\text{data} = \frac{1}{k} \sum_i \Big(\sum_j x_{ij} w_j - y_i\Big)^2, \qquad
# \text{penalty} = \lambda \sum_j w_j^2, \qquad \text{total} = \text{data} + \text{penalty},$$
#
# and return the dictionary `{"data": ..., "penalty": ..., "total": ...}` of their gradients
# with respect to `w`. Delete the tape before returning.

# %% [markdown] key="ex3" lang="es" src="2ab74817"
# ### Ejercicio 3 · Tres preguntas a una sola cinta persistente (3 puntos)
#
# Una pérdida suele tener varias partes, y conviene ver con cuánta fuerza tira de los pesos cada
# una de ellas. Escribe `loss_parts_gradients(w, x, y, lam)`: `w` es una `tf.Variable` de forma
# (n,), `x` un tensor de forma (k, n), `y` un tensor de forma (k,) y `lam` un número. Dentro de una
# sola cinta persistente calcula
#
# $$\text{data} = \frac{1}{k} \sum_i \Big(\sum_j x_{ij} w_j - y_i\Big)^2, \qquad
# \text{penalty} = \lambda \sum_j w_j^2, \qquad \text{total} = \text{data} + \text{penalty},$$
#
# ($\text{data}$ es el término de datos y $\text{penalty}$, la penalización) y devuelve el
# diccionario `{"data": ..., "penalty": ..., "total": ...}` con sus gradientes respecto de `w`.
# Borra la cinta antes de devolver el resultado.

# %% [markdown] key="ex3" lang="pt" src="2ab74817"
# ### Exercício 3 · Três perguntas para uma única fita persistente (3 pontos)
#
# Uma perda costuma ter várias partes, e ajuda ver com que força cada uma puxa os pesos.
# Escreva `loss_parts_gradients(w, x, y, lam)`: `w` é uma `tf.Variable` de formato (n,), `x`
# um tensor de formato (k, n), `y` um tensor de formato (k,) e `lam` um número. Dentro de uma
# única fita persistente, calcule
#
# $$\text{data} = \frac{1}{k} \sum_i \Big(\sum_j x_{ij} w_j - y_i\Big)^2, \qquad
# \text{penalty} = \lambda \sum_j w_j^2, \qquad \text{total} = \text{data} + \text{penalty},$$
#
# ($\text{data}$ é o termo de dados e $\text{penalty}$, a penalidade) e devolva o dicionário
# `{"data": ..., "penalty": ..., "total": ...}` com os gradientes deles em relação a `w`.
# Apague a fita antes de devolver o resultado.

# %% [markdown] key="ex3" lang="ru" src="2ab74817"
# ### Упражнение 3 · Три вопроса к одной персистентной ленте (3 балла)
#
# Функция потерь часто состоит из нескольких частей, и полезно видеть, насколько сильно каждая
# из них тянет веса в свою сторону. Напишите функцию `loss_parts_gradients(w, x, y, lam)`:
# `w` — `tf.Variable` формы (n,), `x` — тензор формы (k, n), `y` — тензор формы (k,), `lam` — число
# $\lambda \ge 0$.
# Внутри одной персистентной ленты вычислите
#
# $$\text{data} = \frac{1}{k} \sum_i \Big(\sum_j x_{ij} w_j - y_i\Big)^2, \qquad
# \text{penalty} = \lambda \sum_j w_j^2, \qquad \text{total} = \text{data} + \text{penalty}$$
#
# ($\text{data}$ — слагаемое данных, $\text{penalty}$ — штраф) и верните словарь
# `{"data": ..., "penalty": ..., "total": ...}` с их градиентами по `w`.
# Перед возвратом результата удалите ленту.

# %% nbgrader="solution" grade_id="l02_ex3_solution"
def loss_parts_gradients(w, x, y, lam):
    ### BEGIN SOLUTION
    with tf.GradientTape(persistent=True) as tape:
        data = tf.reduce_mean((tf.reduce_sum(x * w, axis=1) - y) ** 2)
        penalty = lam * tf.reduce_sum(w**2)
        total = data + penalty
    grads = {
        "data": tape.gradient(data, w),
        "penalty": tape.gradient(penalty, w),
        "total": tape.gradient(total, w),
    }
    del tape
    return grads
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l02_ex3" points=3
from grader import check
check("l02_ex3")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l02_ex3")
### END HIDDEN TESTS

# %% [markdown] key="summary" lang="en"
# ## Summary
#
# - A tape watches trainable Variables on its own, as soon as they are read in the `with` block.
#   Tensors (including a Variable plus a number) and non-trainable Variables are watched only
#   after `tape.watch`.
# - `watch_accessed_variables=False` turns the automatic watching off: the tape watches exactly
#   what you pass to `tape.watch`. `tape.watched_variables()` tells you what it watched.
# - Any tensor computed on the tape can be a source: that is how you get gradients with respect
#   to intermediate results.
# - A tape keeps the tensors its backward pass needs. By default it frees them when `gradient`
#   returns, so it answers once; a `persistent=True` tape answers many times and holds its
#   memory until `del tape`.
#
# Next lesson: targets that are not scalars, Python control flow, and every way to end up with
# a `None` gradient.

# %% [markdown] key="summary" lang="es" src="bf58b113"
# ## Resumen
#
# - Una cinta observa por su cuenta las variables entrenables, en cuanto se leen dentro del
#   bloque `with`. Los tensores (incluida una variable más un número) y las variables no
#   entrenables solo se observan después de `tape.watch`.
# - `watch_accessed_variables=False` desactiva la observación automática: la cinta observa
#   exactamente lo que le pases a `tape.watch`. `tape.watched_variables()` te dice qué observó.
# - Cualquier tensor calculado en la cinta puede ser una fuente: así se obtienen gradientes
#   respecto de resultados intermedios.
# - Una cinta guarda los tensores que necesita su pasada hacia atrás. Por defecto los libera
#   cuando `gradient` termina, así que responde una sola vez; una cinta con `persistent=True`
#   responde muchas veces y retiene su memoria hasta `del tape`.
#
# En la próxima lección: objetivos que no son escalares, el flujo de control de Python y todas
# las formas de acabar con un gradiente `None`.

# %% [markdown] key="summary" lang="pt" src="bf58b113"
# ## Resumo
#
# - Uma fita observa por conta própria as variáveis treináveis, assim que elas são lidas no
#   bloco `with`. Os tensores (inclusive uma variável somada a um número) e as variáveis não
#   treináveis só são observados depois de `tape.watch`.
# - `watch_accessed_variables=False` desliga a observação automática: a fita observa
#   exatamente o que você passar para `tape.watch`. `tape.watched_variables()` diz o que ela
#   observou.
# - Qualquer tensor calculado na fita pode ser uma fonte: é assim que se obtêm gradientes em
#   relação a resultados intermediários.
# - Uma fita guarda os tensores de que a passagem para trás precisa. Por padrão ela os libera
#   quando `gradient` termina, então responde uma vez só; uma fita com `persistent=True`
#   responde muitas vezes e retém a memória até `del tape`.
#
# Na próxima lição: alvos que não são escalares, o fluxo de controle do Python e todas as
# maneiras de acabar com um gradiente `None`.

# %% [markdown] key="summary" lang="ru" src="bf58b113"
# ## Итоги
#
# - Лента сама отслеживает обучаемые переменные, как только их читают внутри блока `with`.
#   Тензоры (в том числе переменная плюс число) и необучаемые переменные отслеживаются только
#   после `tape.watch`.
# - `watch_accessed_variables=False` выключает автоматическое отслеживание: лента следит ровно
#   за тем, что вы передали в `tape.watch`. `tape.watched_variables()` показывает, за чем она
#   следила.
# - Источником может быть любой тензор, вычисленный на ленте: так получают градиенты по
#   промежуточным результатам.
# - Лента хранит тензоры, нужные обратному проходу. По умолчанию она освобождает их, когда
#   `gradient` вернул результат, и потому отвечает один раз; лента с `persistent=True` отвечает
#   сколько угодно раз и удерживает память до `del tape`.
#
# В следующем уроке: нескалярные цели, управляющие конструкции Python и все способы получить
# градиент `None`.

# %% [markdown] key="reflect" lang="en" questions=true
# 1. A tape watches trainable Variables on its own, but not Tensors. Why is that a sensible
#    default for training a model, and in which computation would it get in your way?
# 2. In the memory figure, the persistent tape held its tensors until `del tape`. <!-- claim: l02.memory-minitape --> Picture one
#    training step of a large network: which lines would you move out of the `with` block, and how
#    would you check that the gradient stayed the same?
# 3. A gradient with respect to an intermediate result, such as the activations of a layer,
#    answers a different question than a gradient with respect to the weights. What could it tell
#    you about a network?

# %% [markdown] key="reflect" lang="es" src="c8bce80f"
# 1. Una cinta observa por sí sola las variables entrenables, pero no los tensores. ¿Por qué es un
#    buen comportamiento por defecto para entrenar un modelo, y en qué cálculo te estorbaría?
# 2. En la figura de memoria, la cinta persistente retuvo sus tensores hasta `del tape`. <!-- claim: l02.memory-minitape --> Imagina
#    un paso de entrenamiento de una red grande: ¿qué líneas sacarías del bloque `with`, y cómo
#    comprobarías que el gradiente no cambió?
# 3. Un gradiente respecto de un resultado intermedio, como las activaciones de una capa, no
#    responde a la misma pregunta que un gradiente respecto de los pesos. ¿Qué podría decirte
#    sobre una red?

# %% [markdown] key="reflect" lang="pt" src="c8bce80f"
# 1. Uma fita observa sozinha as variáveis treináveis, mas não os tensores. Por que esse é um bom
#    padrão para treinar um modelo, e em que cálculo ele atrapalharia?
# 2. Na figura de memória, a fita persistente reteve os seus tensores até `del tape`. <!-- claim: l02.memory-minitape --> Imagine um
#    passo de treinamento de uma rede grande: que linhas você tiraria do bloco `with`, e como
#    verificaria que o gradiente não mudou?
# 3. Um gradiente em relação a um resultado intermediário, como as ativações de uma camada,
#    responde a uma pergunta diferente da de um gradiente em relação aos pesos. O que ele poderia
#    revelar sobre uma rede?

# %% [markdown] key="reflect" lang="ru" src="c8bce80f"
# 1. Лента сама отслеживает обучаемые переменные (`tf.Variable`), но не тензоры. Почему это разумное
#    поведение по умолчанию для обучения модели и в каком вычислении оно бы вам мешало?
# 2. На графике памяти персистентная лента удерживала свои тензоры до `del tape`. <!-- claim: l02.memory-minitape --> Представьте один
#    шаг обучения большой сети: какие строки вы бы вынесли из блока `with` и как проверили бы, что
#    градиент не изменился?
# 3. Градиент по промежуточному результату, например по активациям слоя, отвечает не на тот же
#    вопрос, что градиент по весам. Что он мог бы рассказать вам о сети?
