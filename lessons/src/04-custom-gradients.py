# ---
# jupyter:
#   minitape:
#     lesson: 04-custom-gradients
# ---

# %% [markdown] key="title" lang="en"
# # Lesson 4 · Controlling the tape and custom gradients
#
# Until now a tape has recorded every operation it could and used each operation's built-in
# gradient. This lesson puts you in charge of both. You decide what a tape records and cut one
# path out of the backward pass; and you replace the gradient of any function with your own: to
# give an operation a gradient it lacks, to clip a gradient, or to keep it finite where the
# textbook formula overflows.
#
# In this lesson you will learn:
#
# - how to pause or restart a recording (`stop_recording`, `reset`) and how to cut one path
#   (`tf.stop_gradient`), for example to round a value and still let the gradient through, inside
#   a window;
# - how to write your own gradient with `tf.custom_gradient`, also for a function that reads
#   Variables, and how to check it with a nudge; in an optional box, how `tf.RegisterGradient` and
#   `tf.no_gradient` set the gradient of a whole operation type;
# - how to clip a gradient inside the backward pass;
# - how to make a gradient numerically stable, and why a stable value needs a stable formula
#   too.

# %% [markdown] key="title" lang="es" src="384df506"
# # Lección 4 · Controlar la cinta y gradientes personalizados
#
# Hasta ahora una cinta grababa todas las operaciones que podía y usaba el gradiente que cada
# operación trae de serie. En esta lección tomas el control de ambas cosas. Decides qué graba una
# cinta y cortas un camino concreto de la pasada hacia atrás; y sustituyes el gradiente de
# cualquier función por uno tuyo: para darle gradiente a una operación que no lo tiene, para
# recortar un gradiente o para que siga siendo finito donde la fórmula de manual se desborda.
#
# En esta lección aprenderás:
#
# - cómo pausar o reiniciar una grabación (`stop_recording`, `reset`) y cómo cortar un camino
#   concreto (`tf.stop_gradient`), por ejemplo para redondear un valor y dejar pasar igualmente
#   el gradiente, dentro de una ventana;
# - cómo escribir tu propio gradiente con `tf.custom_gradient`, también para una función que lee
#   variables, y cómo comprobarlo con una pequeña perturbación; en un recuadro opcional, cómo
#   `tf.RegisterGradient` y `tf.no_gradient` fijan el gradiente de todo un tipo de operación;
# - cómo recortar un gradiente dentro de la pasada hacia atrás;
# - cómo hacer que un gradiente sea numéricamente estable, y por qué un valor estable necesita
#   también una fórmula estable.

# %% [markdown] key="title" lang="pt" src="384df506"
# # Lição 4 · Controlando a fita e gradientes personalizados
#
# Até agora uma fita gravava todas as operações que podia e usava o gradiente que cada operação
# já traz. Nesta lição você assume o controle das duas coisas. Você decide o que uma fita grava e
# corta um caminho específico da passagem para trás; e substitui o gradiente de qualquer função
# por um escrito por você: para dar gradiente a uma operação que não tem, para recortar um
# gradiente ou para mantê-lo finito onde a fórmula dos livros estoura.
#
# Nesta lição você vai aprender:
#
# - como pausar ou reiniciar uma gravação (`stop_recording`, `reset`) e como cortar um caminho
#   específico (`tf.stop_gradient`), por exemplo para arredondar um valor e ainda assim deixar o
#   gradiente passar, dentro de uma janela;
# - como escrever o seu próprio gradiente com `tf.custom_gradient`, também para uma função que
#   lê variáveis, e como conferi-lo com uma pequena perturbação; num quadro opcional, como
#   `tf.RegisterGradient` e `tf.no_gradient` definem o gradiente de todo um tipo de operação;
# - como recortar um gradiente dentro da passagem para trás;
# - como tornar um gradiente numericamente estável, e por que um valor estável também precisa de
#   uma fórmula estável.

# %% [markdown] key="title" lang="ru" src="384df506"
# # Урок 4 · Управление лентой и собственные градиенты
#
# До сих пор лента записывала все операции, какие могла, и брала для каждой операции её
# встроенный градиент. В этом уроке и то и другое переходит под ваше управление. Вы решаете, что
# лента записывает, и вырезаете один путь из обратного прохода; а ещё заменяете градиент любой
# функции своим — чтобы дать градиент операции, у которой его нет, обрезать градиент или сохранить
# его конечным там, где формула из учебника даёт переполнение.
#
# В этом уроке вы узнаете:
#
# - как приостановить или начать заново запись (`stop_recording`, `reset`) и как перерезать
#   один конкретный путь (`tf.stop_gradient`) — например, чтобы округлить значение и всё же
#   пропустить градиент, но только внутри окна;
# - как написать собственный градиент с `tf.custom_gradient`, в том числе для функции, которая
#   читает переменные, и как проверить его небольшим сдвигом; в необязательной врезке — как
#   `tf.RegisterGradient` и `tf.no_gradient` задают градиент целого типа операций;
# - как обрезать градиент внутри обратного прохода;
# - как сделать градиент численно устойчивым и почему для устойчивого значения нужна ещё и
#   устойчивая формула.

# %% key="setup-code"

import ipywidgets as widgets
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Circle

import minitape as tf
from lessons.figures import PALETTE, png
from lessons.i18n import t
from lessons.widgets import label_sliders

tf.random.set_seed(4)
label_sliders()

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
# sin pagar el coste de grabarlo: un valor que quieres imprimir o guardar, o un gradiente que solo
# quieres mirar. Una cinta persistente puede incluso responder a una pregunta mientras todavía está
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
# constante: nada fluye hacia atrás a través de él. Su alcance es mucho menor que el de
# `stop_recording`: corta un solo camino, todas las demás operaciones se siguen grabando y ni
# siquiera necesitas acceso a la cinta.

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
# `x`, es decir, $1$. Este truco, llamado *straight-through*, es uno de los que permiten entrenar
# redes con pesos redondeados (cuantizados).

# %% [markdown] key="straight-through" lang="pt" src="1671348a"
# Um uso clássico: para a frente, um valor; para trás, o gradiente de outro. `tf.round` não tem
# um gradiente útil (a fita dá `None`), mas a expressão `x + tf.stop_gradient(tf.round(x) - x)`
# *vale* `round(x)` e, ainda assim, o seu gradiente é o de `x`, ou seja, $1$. Esse truque,
# chamado *straight-through*, é um dos que permitem treinar redes com pesos arredondados
# (quantizados).

# %% [markdown] key="straight-through" lang="ru" src="1671348a"
# Классический пример: на прямом проходе одно значение, на обратном — градиент другого. У
# `tf.round` нет полезного градиента (лента даёт `None`), но выражение
# `x + tf.stop_gradient(tf.round(x) - x)` *равно* `round(x)`, а его градиент — это градиент `x`,
# то есть $1$. Этот приём, *сквозная оценка градиента* (*straight-through estimator*), — один из
# тех, что позволяют обучать сети с округлёнными (квантованными) весами.

# %% key="straight-through-code"
x = tf.Variable(2.7)

with tf.GradientTape(persistent=True) as tape:
    rounded = tf.round(x)
    straight_through = x + tf.stop_gradient(tf.round(x) - x)

print(t("l04.value_gradient", name="rounded", value=rounded.numpy(), grad=tape.gradient(rounded, x)))
print(t("l04.value_gradient", name="straight_through", value=straight_through.numpy(),
        grad=tape.gradient(straight_through, x).numpy()))
del tape

# %% [markdown] key="straight-through-window" lang="en"
# ### A window for the straight-through estimator
#
# Letting the gradient through everywhere has a flaw: a weight that has drifted far outside the
# range where rounding is useful keeps receiving gradient, and nothing stops it from drifting
# further. Quantized networks therefore give the estimator a *window*: the gradient passes only
# where $|x| \le 1$. Clip the value first, `c = tf.clip_by_value(x, -1.0, 1.0)`, whose gradient is
# 1 inside the window and 0 outside it, and start the trick from `c`:
# `c + tf.stop_gradient(tf.round(x) - c)` still *equals* `round(x)`, but its gradient is that of
# `c`:

# %% [markdown] key="straight-through-window" lang="es" src="45cf7e54"
# ### Una ventana para el estimador *straight-through*
#
# Dejar pasar el gradiente en todas partes tiene un defecto: un peso que se ha alejado mucho del
# intervalo donde el redondeo es útil sigue recibiendo gradiente, y nada le impide alejarse más.
# Por eso las redes cuantizadas dan al estimador una *ventana*: el gradiente solo pasa donde
# $|x| \le 1$. Recorta primero el valor, `c = tf.clip_by_value(x, -1.0, 1.0)`, cuyo gradiente es
# 1 dentro de la ventana y 0 fuera de ella, y empieza el truco desde `c`:
# `c + tf.stop_gradient(tf.round(x) - c)` sigue *valiendo* `round(x)`, pero su gradiente es el de
# `c`:

# %% [markdown] key="straight-through-window" lang="pt" src="45cf7e54"
# ### Uma janela para o estimador *straight-through*
#
# Deixar o gradiente passar em todo lugar tem um defeito: um peso que se afastou muito do
# intervalo onde o arredondamento é útil continua recebendo gradiente, e nada o impede de se
# afastar ainda mais. Por isso as redes quantizadas dão ao estimador uma *janela*: o gradiente só
# passa onde $|x| \le 1$. Recorte primeiro o valor, `c = tf.clip_by_value(x, -1.0, 1.0)`, cujo
# gradiente é 1 dentro da janela e 0 fora dela, e comece o truque por `c`:
# `c + tf.stop_gradient(tf.round(x) - c)` continua *valendo* `round(x)`, mas o seu gradiente é o
# de `c`:

# %% [markdown] key="straight-through-window" lang="ru" src="45cf7e54"
# ### Окно для сквозной оценки градиента
#
# Пропускать градиент везде — значит мириться с изъяном: вес, ушедший далеко за пределы
# интервала, где округление полезно, продолжает получать градиент, и ничто не мешает ему уходить
# дальше. Поэтому в квантованных сетях у оценки есть *окно*: градиент проходит только там, где
# $|x| \le 1$. Сначала обрежьте значение, `c = tf.clip_by_value(x, -1.0, 1.0)` (его градиент равен
# 1 внутри окна и 0 вне его), и начинайте приём с `c`: выражение
# `c + tf.stop_gradient(tf.round(x) - c)` по-прежнему *равно* `round(x)`, но его градиент — это
# градиент `c`:

# %% key="straight-through-window-code"
x = tf.Variable([0.3, 1.7, -2.2, -0.8])

with tf.GradientTape() as tape:
    c = tf.clip_by_value(x, -1.0, 1.0)
    windowed = c + tf.stop_gradient(tf.round(x) - c)

print(t("l04.value_gradient", name="windowed", value=windowed.numpy(),
        grad=tape.gradient(windowed, x).numpy()))

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
# Как это устроено, хорошо видно на функции возведения в квадрат с градиентом, написанным
# вручную. Цель равна $10 \cdot x^2$,
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
# A hand-written gradient deserves a check, and the check of lesson 1 needs nothing but the
# function's value: a central difference along a random direction against the slope the gradient
# predicts, compared by their relative error. Here is `gradient_check` from lesson 1's exercise 5,
# applied to both gradients that our `adjust_contrast` gave above. The function it nudges is the
# loss written with the operation's value, $(x - \bar{x}) \cdot f + \bar{x}$, in float64; the
# gradients come from our `backward`, in the float32 of the image and the factor, so they can
# agree with the nudge to about seven digits, not more. Both relative errors are below $10^{-5}$:

# %% [markdown] key="custom-check" lang="es" src="c7aa9224"
# Un gradiente escrito a mano merece una comprobación, y la de la lección 1 no necesita más que
# el valor de la función: una diferencia central a lo largo de una dirección aleatoria frente a la
# pendiente que predice el gradiente, comparadas por su error relativo. Aquí está `gradient_check`,
# del ejercicio 5 de la lección 1, aplicada a los dos gradientes que dio arriba nuestro
# `adjust_contrast`. La función que perturba es la pérdida escrita con el valor de la operación,
# $(x - \bar{x}) \cdot f + \bar{x}$, en float64; los gradientes salen de nuestro `backward`, en el
# float32 de la imagen y del factor, así que pueden coincidir con la perturbación en unas siete
# cifras, no más. Los dos errores relativos quedan por debajo de $10^{-5}$:

# %% [markdown] key="custom-check" lang="pt" src="c7aa9224"
# Um gradiente escrito à mão merece uma verificação, e a da lição 1 não precisa de nada além do
# valor da função: uma diferença central ao longo de uma direção sorteada contra a inclinação que
# o gradiente prevê, comparadas pelo erro relativo. Aqui está `gradient_check`, do exercício 5 da
# lição 1, aplicada aos dois gradientes que o nosso `adjust_contrast` deu acima. A função que ela
# perturba é a perda escrita com o valor da operação, $(x - \bar{x}) \cdot f + \bar{x}$, em
# float64; os gradientes vêm do nosso `backward`, no float32 da imagem e do fator, então podem
# coincidir com a perturbação em cerca de sete casas, não mais. Os dois erros relativos ficam
# abaixo de $10^{-5}$:

# %% [markdown] key="custom-check" lang="ru" src="c7aa9224"
# Градиент, написанный вручную, стоит проверить, а проверке из урока 1 не нужно ничего, кроме
# значений функции: центральная разность вдоль случайного направления против наклона, который
# предсказывает градиент, и сравнение по относительной ошибке. Вот `gradient_check` из
# упражнения 5 урока 1, применённая к обоим градиентам, которые выше дала наша `adjust_contrast`.
# Сдвигается функция потерь, записанная через значение операции, $(x - \bar{x}) \cdot f + \bar{x}$,
# во float64; градиенты берутся из нашего `backward` во float32 — в том типе, в котором заданы
# изображение и множитель, — поэтому совпасть со сдвигом они могут примерно в семи знаках, не
# больше. Обе относительные ошибки меньше $10^{-5}$:

# %% key="custom-check-code"
def gradient_check(f, x, grad, v):
    h = 1e-5
    nudge = float((f(x + h * v) - f(x - h * v)) / (2 * h))
    predicted = float(tf.reduce_sum(grad * v))
    return [nudge, predicted, abs(nudge - predicted) / max(abs(nudge), abs(predicted))]


def contrast_loss(images, factor):
    mean = tf.reduce_mean(images, axis=[-3, -2], keepdims=True)
    return tf.reduce_sum(((images - mean) * factor + mean) ** 2)


image64 = tf.constant(image.numpy().astype(np.float64))
factor64 = tf.constant(float(factor.numpy()), dtype=tf.float64)
rng = np.random.default_rng(4)
for name, f, source, grad in [("d_image", lambda im: contrast_loss(im, factor64), image64, d_image),
                              ("d_factor", lambda fa: contrast_loss(image64, fa), factor64, d_factor)]:
    v = tf.constant(rng.standard_normal(tuple(source.shape)))
    nudge, predicted, rel_error = gradient_check(f, source, tf.cast(grad, tf.float64), v)
    print(f"{name:9} nudge = {nudge:.4f}   predicted = {predicted:.4f}   rel_error < 1e-5: {rel_error < 1e-5}")

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
# ### Un gradiente personalizado que lee una variable
#
# Una función decorada con `@tf.custom_gradient` puede leer `tf.Variable` entrenables que no
# están entre sus argumentos, como una capa lee sus pesos. Entonces la cinta también necesita que
# le des sus gradientes: `backward` recibe un argumento con nombre `variables` (las variables
# que la función leyó) y devuelve un par: los gradientes de las entradas y una lista con un
# gradiente por variable, en el orden de `variables`. Sin el argumento `variables`, la llamada
# lanza `TypeError`.

# %% [markdown] key="custom-variables" lang="pt" src="31b5afb9"
# ### Um gradiente personalizado que lê uma variável
#
# Uma função decorada com `@tf.custom_gradient` pode ler `tf.Variable` treináveis que não estão
# entre os seus argumentos, como uma camada lê os seus pesos. Então a fita também precisa
# receber de você os gradientes delas: `backward` recebe um argumento nomeado `variables` (as
# variáveis que a função leu) e devolve um par: os gradientes das entradas e uma lista com um
# gradiente por variável, na ordem de `variables`. Sem o argumento `variables`, a chamada lança
# `TypeError`.

# %% [markdown] key="custom-variables" lang="ru" src="31b5afb9"
# ### Собственный градиент для функции, которая читает переменные (`tf.Variable`)
#
# Функция с декоратором `@tf.custom_gradient` может читать обучаемые `tf.Variable`, которых нет
# среди её аргументов, — так слой читает свои веса. Тогда и градиенты по этим переменным
# должны вернуть вы:
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

# %% [markdown] key="register-note" lang="en"
# TensorFlow can also set the gradient of a whole operation *type*, for the whole process:
# `tf.RegisterGradient` gives one and `tf.no_gradient` takes it away. <!-- claim: l04.registry-api --> They are meant for new
# operation types, such as an operation written in C++; to change the gradient of one function of
# your own, use `tf.custom_gradient`, as above. The optional box below shows both; nothing later in
# the course depends on it.

# %% [markdown] key="register-note" lang="es" src="336f1c78"
# TensorFlow también puede fijar el gradiente de todo un *tipo* de operación, para todo el
# proceso: `tf.RegisterGradient` le da uno y `tf.no_gradient` se lo quita. <!-- claim: l04.registry-api --> Están pensados para
# tipos de operación nuevos, como una operación escrita en C++; para cambiar el gradiente de una
# función tuya, usa `tf.custom_gradient`, como arriba. El recuadro opcional de abajo muestra los
# dos; nada de lo que viene después en el curso depende de él.

# %% [markdown] key="register-note" lang="pt" src="336f1c78"
# O TensorFlow também pode definir o gradiente de todo um *tipo* de operação, para o processo
# inteiro: `tf.RegisterGradient` dá um gradiente e `tf.no_gradient` o tira. <!-- claim: l04.registry-api --> Eles foram feitos para
# tipos de operação novos, como uma operação escrita em C++; para mudar o gradiente de uma função
# sua, use `tf.custom_gradient`, como acima. O quadro opcional abaixo mostra os dois; nada do que
# vem depois no curso depende dele.

# %% [markdown] key="register-note" lang="ru" src="336f1c78"
# TensorFlow умеет задавать градиент и целому *типу* операций, сразу для всего процесса:
# `tf.RegisterGradient` даёт градиент, `tf.no_gradient` его отнимает. <!-- claim: l04.registry-api --> Они предназначены для новых
# типов операций, например написанных на C++; чтобы изменить градиент одной своей функции,
# используйте `tf.custom_gradient`, как выше. Необязательная врезка ниже показывает оба способа;
# дальше в курсе ничто на неё не опирается.

# %% [markdown] key="register-gradient" lang="en"
# ### Optional box · Gradients registered by operation type
#
# TensorFlow has a second, global way to give gradients: `@tf.RegisterGradient("OpType")` on a
# function `grad(op, upstream)` that returns one gradient per input of the operation, and
# `tf.no_gradient("OpType")`, which declares an operation type not differentiable (the tape
# then gives `None` through it, as for `tf.round`). <!-- claim: l04.registry-api --> Both act on a registry
# shared by the whole process and keyed by the operation's type name, so they are meant for *new*
# operation types, such as an operation written in C++ and loaded with `tf.load_op_library`;
# TensorFlow refuses (`KeyError`) to register a second gradient for a type that has one. <!-- claim: l04.register-twice -->
# To change the gradient of one function of your own, use `tf.custom_gradient`: it changes that
# function and nothing else. minitape's registry behaves the same way: `tf.RegisterGradient("Sin")`
# raises `KeyError`, because `Sin` already has a gradient. <!-- claim: l04.register-twice --> Of the operations
# you call yourself, the only one without a gradient in minitape is `AdjustContrastv2` (lesson 3
# met its `LookupError` in `tf.image.adjust_contrast`), so that is where you can try both:
# register a function for it, or declare it with `tf.no_gradient` and get `None`. <!-- claim: l04.only-adjust-contrast -->
# A registration lasts as long as the Python process, in TensorFlow as in minitape: run the next
# cell a second time and its decorator raises `KeyError` (restart the kernel to start over). <!-- claim: l04.registration-lasts -->

# %% [markdown] key="register-gradient" lang="es" src="bc0affc1"
# ### Recuadro opcional · Gradientes registrados por tipo de operación
#
# TensorFlow tiene una segunda forma, global, de dar gradientes: `@tf.RegisterGradient("OpType")`
# sobre una función `grad(op, upstream)` que devuelve un gradiente por cada entrada de la
# operación, y `tf.no_gradient("OpType")`, que declara un tipo de operación no diferenciable (la
# cinta da entonces `None` a través de ella, como con `tf.round`). <!-- claim: l04.registry-api --> Las dos
# actúan sobre un registro compartido por todo el proceso e indexado por el nombre del tipo de
# operación, así que están pensadas para tipos de operación *nuevos*, como una operación escrita
# en C++ y cargada con `tf.load_op_library`; TensorFlow se niega (`KeyError`) a registrar un
# segundo gradiente para un tipo que ya tiene uno. <!-- claim: l04.register-twice --> Para cambiar el
# gradiente de una función tuya, usa `tf.custom_gradient`: cambia esa función y nada más. El
# registro de minitape se comporta igual: `tf.RegisterGradient("Sin")` lanza `KeyError`, porque
# `Sin` ya tiene gradiente. <!-- claim: l04.register-twice --> De las operaciones que llamas tú mismo, la única
# sin gradiente en minitape es `AdjustContrastv2` (su `LookupError` apareció en la lección 3, en
# `tf.image.adjust_contrast`), así que ahí puedes probar las dos cosas: registrar una función
# para ella, o declararla con `tf.no_gradient` y obtener `None`. <!-- claim: l04.only-adjust-contrast --> Un
# registro dura lo que dure el proceso de Python, en TensorFlow como en minitape: si ejecutas la
# celda siguiente una segunda vez, su decorador lanza `KeyError` (reinicia el kernel para empezar
# de cero). <!-- claim: l04.registration-lasts -->

# %% [markdown] key="register-gradient" lang="pt" src="bc0affc1"
# ### Quadro opcional · Gradientes registrados por tipo de operação
#
# O TensorFlow tem uma segunda forma, global, de dar gradientes: `@tf.RegisterGradient("OpType")`
# sobre uma função `grad(op, upstream)` que devolve um gradiente por entrada da operação, e
# `tf.no_gradient("OpType")`, que declara um tipo de operação não diferenciável (a fita então dá
# `None` através dela, como com `tf.round`). <!-- claim: l04.registry-api --> As duas agem sobre um registro
# compartilhado por todo o processo e indexado pelo nome do tipo de operação, então foram feitas
# para tipos de operação *novos*, como uma operação escrita em C++ e carregada com
# `tf.load_op_library`; o TensorFlow se recusa (`KeyError`) a registrar um segundo gradiente para
# um tipo que já tem um. <!-- claim: l04.register-twice --> Para mudar o gradiente de uma função sua, use
# `tf.custom_gradient`: ele muda essa função e mais nada. O registro do minitape se comporta da
# mesma forma: `tf.RegisterGradient("Sin")` lança `KeyError`, porque `Sin` já tem gradiente. <!-- claim: l04.register-twice -->
# Das operações que você mesmo chama, a única sem gradiente no minitape é `AdjustContrastv2` (o
# `LookupError` dela apareceu na lição 3, em `tf.image.adjust_contrast`), então é ali que você pode
# experimentar as duas coisas: registrar uma função para ela, ou declará-la com `tf.no_gradient` e
# obter `None`. <!-- claim: l04.only-adjust-contrast --> Um registro dura enquanto durar o processo Python, no
# TensorFlow como no minitape: rode a célula seguinte uma segunda vez e o decorador dela lança
# `KeyError` (reinicie o kernel para recomeçar). <!-- claim: l04.registration-lasts -->

# %% [markdown] key="register-gradient" lang="ru" src="bc0affc1"
# ### Необязательная врезка · Градиенты, зарегистрированные по типу операции
#
# В TensorFlow есть второй, глобальный способ задать градиент: `@tf.RegisterGradient("OpType")`
# над функцией `grad(op, upstream)`, которая возвращает по одному градиенту на каждый вход
# операции, и `tf.no_gradient("OpType")`, который объявляет тип операции недифференцируемым
# (лента тогда даёт через неё `None`, как для `tf.round`). <!-- claim: l04.registry-api --> Оба действуют на
# реестр, общий для всего процесса и индексированный по имени типа операции, поэтому они
# предназначены для *новых* типов операций, например операции на C++, загруженной через
# `tf.load_op_library`; зарегистрировать второй градиент для типа, у которого он уже есть,
# TensorFlow не даёт (`KeyError`). <!-- claim: l04.register-twice --> Чтобы изменить градиент одной своей
# функции, используйте `tf.custom_gradient`: он меняет эту функцию и больше ничего. Реестр
# minitape ведёт себя так же: `tf.RegisterGradient("Sin")` вызывает `KeyError`, потому что у
# `Sin` градиент уже есть. <!-- claim: l04.register-twice --> Из операций, которые вы вызываете сами, без
# градиента в minitape только `AdjustContrastv2` (его `LookupError` встречался в уроке 3, в
# `tf.image.adjust_contrast`), поэтому пробовать обе функции можно на нём: зарегистрировать для
# него свою функцию или объявить его через `tf.no_gradient` и получить `None`. <!-- claim: l04.only-adjust-contrast -->
# Регистрация действует, пока жив процесс Python, — в TensorFlow так же, как в minitape:
# запустите следующую ячейку второй раз, и её декоратор вызовет `KeyError` (чтобы начать
# заново, перезапустите ядро). <!-- claim: l04.registration-lasts -->

# %% key="register-gradient-code"
@tf.RegisterGradient("AdjustContrastv2")
def adjust_contrast_grad(op, upstream):
    images, factor = op.inputs
    mean = tf.reduce_mean(images, axis=[-3, -2], keepdims=True)
    upstream_mean = tf.reduce_mean(upstream, axis=[-3, -2], keepdims=True)
    return factor * upstream + (1 - factor) * upstream_mean, tf.reduce_sum(upstream * (images - mean))


with tf.GradientTape() as tape:
    loss = tf.reduce_sum(tf.image.adjust_contrast(image, factor) ** 2)
registered_image, registered_factor = tape.gradient(loss, [image, factor])
print(np.allclose(registered_image.numpy(), d_image.numpy()),
      np.allclose(registered_factor.numpy(), d_factor.numpy()))
try:
    tf.RegisterGradient("AdjustContrastv2")(adjust_contrast_grad)
except KeyError as error:
    print(type(error).__name__)

# %% [markdown] key="no-gradient" lang="en"
# The registered function gives the same gradients as the `custom_gradient` above (`True True`),
# and a second registration for the same type raises `KeyError`. Neither TensorFlow nor minitape's
# public API can take a registration back; the next cell uses the course's own
# `minitape._custom.restore_gradient` to take it back before and after its demonstration, so it
# does not exist in TensorFlow. <!-- claim: l04.restore-course-only -->
#
# `tf.no_gradient` goes the other way: the operation's result becomes a constant for every tape,
# as if each call were wrapped in `tf.stop_gradient`. Below, `loss` multiplies the adjusted image
# by `image`, so `image` still gets a gradient, through the second factor of the product only
# (it equals the adjusted image), while `factor`, reached only through the operation, gets
# `None`:

# %% [markdown] key="no-gradient" lang="es" src="92289430"
# La función registrada da los mismos gradientes que el `custom_gradient` de arriba
# (`True True`), y un segundo registro para el mismo tipo lanza `KeyError`. Ni TensorFlow ni la API pública de
# minitape pueden deshacer un registro; la celda siguiente usa `minitape._custom.restore_gradient`,
# una herramienta propia del curso, para deshacerlo antes y después de su demostración, así que no
# existe en TensorFlow. <!-- claim: l04.restore-course-only -->
#
# `tf.no_gradient` va en sentido contrario: el resultado de la operación pasa a ser una constante
# para todas las cintas, como si cada llamada estuviera envuelta en `tf.stop_gradient`. Abajo,
# `loss` multiplica la imagen ajustada por `image`, así que `image` sigue recibiendo un
# gradiente, solo a través del segundo factor del producto (ese gradiente es igual a la imagen
# ajustada),
# mientras que `factor`, al que solo se llega a través de la operación, recibe `None`:

# %% [markdown] key="no-gradient" lang="pt" src="92289430"
# A função registrada dá os mesmos gradientes que o `custom_gradient` acima (`True True`), e um
# segundo registro para o mesmo tipo lança `KeyError`. Nem o TensorFlow nem a API pública do
# minitape conseguem desfazer um registro; a célula seguinte usa `minitape._custom.restore_gradient`,
# uma ferramenta própria do curso, para desfazê-lo antes e depois da demonstração, então ela não
# existe no TensorFlow. <!-- claim: l04.restore-course-only -->
#
# `tf.no_gradient` vai no sentido oposto: o resultado da operação passa a ser uma constante para
# todas as fitas, como se cada chamada estivesse envolvida em `tf.stop_gradient`. Abaixo, `loss`
# multiplica a imagem ajustada por `image`, então `image` ainda recebe um gradiente, só pelo
# segundo fator do produto (esse gradiente é igual à imagem ajustada), enquanto `factor`, que só é
# alcançado através da operação, recebe `None`:

# %% [markdown] key="no-gradient" lang="ru" src="92289430"
# Зарегистрированная функция даёт те же градиенты, что и `custom_gradient` выше (`True True`), а
# повторная регистрация для того же типа вызывает `KeyError`. Ни TensorFlow, ни публичный API
# minitape не умеют отменять регистрацию; следующая ячейка отменяет её до и после своей
# демонстрации с помощью `minitape._custom.restore_gradient` — инструмента самого курса, поэтому
# в TensorFlow её нет. <!-- claim: l04.restore-course-only -->
#
# `tf.no_gradient` действует наоборот: результат операции становится константой для всех лент,
# как будто каждый её вызов обёрнут в `tf.stop_gradient`. Ниже `loss` умножает обработанное
# изображение на `image`, поэтому `image` всё равно получает градиент — только через второй
# множитель произведения (этот градиент равен обработанному изображению), а `factor`, до которого можно
# добраться только через операцию, получает `None`:

# %% key="no-gradient-code" tf="course"
import minitape._custom

minitape._custom.restore_gradient("AdjustContrastv2")
tf.no_gradient("AdjustContrastv2")
try:
    with tf.GradientTape() as tape:
        contrast = tf.image.adjust_contrast(image, factor)
        loss = tf.reduce_sum(contrast * image)
    d_image_cut, d_factor_cut = tape.gradient(loss, [image, factor])
    print(np.allclose(d_image_cut.numpy(), contrast.numpy()), d_factor_cut)
finally:
    minitape._custom.restore_gradient("AdjustContrastv2")

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
# el gradiente que le llega hasta una norma de, como mucho, $0{,}5$ con `tf.clip_by_norm`. Sigue
# los números: el objetivo es la salida de la función, así que `upstream` vale $1$ y se recorta a
# $0{,}5$; después, la regla de la cadena multiplica por $\frac{d(v^2)}{dv} = 2v = 4$. En lugar de
# $4$, el gradiente es $0{,}5 \cdot 4 = 2$.

# %% [markdown] key="custom-clip" lang="pt" src="a75fccaf"
# ### Recortar um gradiente
#
# Esta função é a identidade na passagem para a frente, mas na passagem para trás encurta o
# gradiente que chega até uma norma de no máximo $0{,}5$ com `tf.clip_by_norm`. Acompanhe os
# números: o alvo é a saída da função, então `upstream` vale $1$ e é recortado para $0{,}5$;
# depois, a regra da cadeia multiplica por $\frac{d(v^2)}{dv} = 2v = 4$. Em vez de $4$, o
# gradiente é $0{,}5 \cdot 4 = 2$.

# %% [markdown] key="custom-clip" lang="ru" src="a75fccaf"
# ### Обрезка градиента
#
# На прямом проходе эта функция возвращает свой вход без изменений, а на обратном укорачивает
# пришедший градиент с помощью `tf.clip_by_norm` так, чтобы его норма была не больше $0{,}5$. Проследим за числами:
# цель — это выход функции, поэтому `upstream` равен $1$ и обрезается до $0{,}5$; затем цепное
# правило умножает его на $\frac{d(v^2)}{dv} = 2v = 4$. Вместо $4$ получается градиент
# $0{,}5 \cdot 4 = 2$.

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
# dotted circle), the red arrow stops at the circle, always along the same line. <!-- claim: l04.clip-widget -->
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
# $L(w) = \frac{1}{2}(w_0^2 + 4 w_1^2)$ en $w = (1; 0{,}5)$: la flecha gris es su gradiente de
# siempre, y la roja, lo que devuelve la cinta cuando $w$ pasa antes por una identidad que recorta
# el gradiente. Mueve el deslizador: siempre que el gradiente normal sea más largo que la norma de
# recorte (el radio del círculo punteado), la flecha roja se detiene en el círculo, siempre sobre
# la misma recta. <!-- claim: l04.clip-widget -->
#
# Esto se cumple porque `tf.clip_by_norm` escala un tensor entero por un único factor. Otros
# recortes sí pueden girar el gradiente: `tf.clip_by_value` recorta cada componente por separado
# (la componente grande se recorta y la pequeña no), y recortar cada variable de un modelo con su
# propio `clip_by_norm` cambia la dirección del gradiente de todas las variables en conjunto.
# `tf.clip_by_global_norm` escala todos los tensores por un mismo factor, así que conserva esa
# dirección global.

# %% [markdown] key="clip-widget" lang="pt" src="df593492"
# ### Explore: recortar preserva a direção
#
# Para um vetor, `tf.clip_by_norm` preserva a direção do gradiente e apenas o encurta, de modo que
# o seu comprimento não passe da norma de recorte. Abaixo, a perda é
# $L(w) = \frac{1}{2}(w_0^2 + 4 w_1^2)$ em $w = (1; 0{,}5)$: a seta cinza é o seu gradiente comum, e
# a vermelha, o que a fita devolve quando $w$ passa antes por uma identidade que recorta o
# gradiente. Mova o controle deslizante: sempre que o gradiente comum for mais comprido que a
# norma de recorte (o raio do círculo pontilhado), a seta vermelha para no círculo, sempre sobre
# a mesma reta. <!-- claim: l04.clip-widget -->
#
# Isso vale porque `tf.clip_by_norm` escala um tensor inteiro por um único fator. Outros recortes
# podem, sim, girar o gradiente: `tf.clip_by_value` recorta cada componente separadamente (a
# componente grande é recortada, a pequena não), e recortar cada variável de um modelo com o seu
# próprio `clip_by_norm` muda a direção do gradiente de todas as variáveis juntas.
# `tf.clip_by_global_norm` escala todos os tensores por um mesmo fator, e assim preserva essa
# direção global.

# %% [markdown] key="clip-widget" lang="ru" src="df593492"
# ### Исследуйте: обрезка сохраняет направление
#
# Для вектора `tf.clip_by_norm` сохраняет направление градиента и только укорачивает его так,
# чтобы длина не превышала порог нормы. Ниже рассматривается функция потерь
# $L(w) = \frac{1}{2}(w_0^2 + 4 w_1^2)$ в точке $w = (1; 0{,}5)$: серая стрелка — её обычный
# градиент, красная — то, что возвращает лента, когда $w$ сначала проходит через тождественную
# функцию с обрезкой градиента. Двигайте ползунок: когда обычный градиент длиннее порога (радиуса
# пунктирной окружности), красная стрелка останавливается на окружности, всегда на той же
# прямой. <!-- claim: l04.clip-widget -->
#
# Так получается потому, что `tf.clip_by_norm` умножает весь тензор на один общий множитель.
# Другие способы обрезки могут и повернуть градиент: `tf.clip_by_value` обрезает каждую
# компоненту по отдельности (большую по модулю компоненту урезает, малую — нет), а если обрезать каждую
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
    ax.add_patch(Circle(w0, max_norm, fill=False, linestyle=":", color=PALETTE[1]))
    ax.arrow(*w0, *plain, width=0.09, color="0.75", length_includes_head=True, label=t("l04.clip.plain"))
    ax.arrow(*w0, *clipped, width=0.04, color=PALETTE[1], length_includes_head=True, label=t("l04.clip.clipped"))
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
    clip_image.value = png(fig)


clip_slider.observe(show_clipping, names="value")
show_clipping()
widgets.VBox([clip_slider, clip_readout, clip_image])

# %% [markdown] key="log1pexp" lang="en"
# ### A numerically stable gradient
#
# The function $\log(1 + e^x)$ (called *softplus*) is everywhere in machine learning. Written
# naively, its gradient breaks down for large $x$. In float32, $e^{100}$ overflows to infinity, and the backward pass multiplies the derivative of the logarithm,
# $\frac{1}{1 + e^x} = 0$, by the derivative of the exponential, $e^x = \infty$: $0 \cdot \infty$
# is NaN (*not a number*):

# %% [markdown] key="log1pexp" lang="es" src="45d9ca60"
# ### Un gradiente numéricamente estable
#
# La función $\log(1 + e^x)$ (llamada *softplus*) aparece por todas partes en aprendizaje
# automático. Escrita de forma ingenua, su gradiente se rompe para $x$ grande. En float32,
# $e^{100}$ se desborda a infinito, y la pasada hacia atrás multiplica la
# derivada del logaritmo, $\frac{1}{1 + e^x} = 0$, por la derivada de la exponencial,
# $e^x = \infty$: $0 \cdot \infty$ es NaN (*not a number*, «no es un número»):

# %% [markdown] key="log1pexp" lang="pt" src="45d9ca60"
# ### Um gradiente numericamente estável
#
# A função $\log(1 + e^x)$ (chamada *softplus*) aparece em toda parte em aprendizado de máquina.
# Escrita de forma ingênua, o seu gradiente quebra para $x$ grande. Em float32, $e^{100}$ estoura
# para infinito, e a passagem para trás multiplica a derivada do logaritmo,
# $\frac{1}{1 + e^x} = 0$, pela derivada da exponencial, $e^x = \infty$: $0 \cdot \infty$ é NaN
# (*not a number*, “não é um número”):

# %% [markdown] key="log1pexp" lang="ru" src="45d9ca60"
# ### Численно устойчивый градиент
#
# Функция $\log(1 + e^x)$ (её называют *softplus*) встречается в машинном обучении повсюду. Если
# вычислять её прямо по формуле, градиент ломается при больших $x$. В float32 $e^{100}$ переполняется до
# бесконечности, и обратный проход умножает производную логарифма
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

# %% [markdown] key="exercises" lang="en"
# ## Exercises
#
# As before: complete each function, run its cell and then the `check` cell below it. The
# hidden checks call your functions at random points (and compare some answers with finite
# differences), so your code has to work in general, not only for the examples. Your answers are compared as in lesson 1: by their value, whatever holds it, within float32's
# tolerance.
# Exercises 6 and 7 are optional: they are checked like the others and add no points.

# %% [markdown] key="exercises" lang="es" src="dbc1521d"
# ## Ejercicios
#
# Como antes: completa cada función, ejecuta su celda y después la celda de `check` que hay
# debajo. Las comprobaciones ocultas llaman a tus funciones en puntos aleatorios (y comparan
# algunas respuestas con diferencias finitas), así que tu código tiene que funcionar en general,
# no solo para los ejemplos. Tus respuestas se comparan como en la lección 1: por su valor, sea cual sea el contenedor,
# con la tolerancia de float32.
# Los ejercicios 6 y 7 son opcionales: se comprueban como los demás, pero no suman puntos.

# %% [markdown] key="exercises" lang="pt" src="dbc1521d"
# ## Exercícios
#
# Como antes: complete cada função, execute a célula dela e depois a célula de `check` logo
# abaixo. As verificações ocultas chamam as suas funções em pontos aleatórios (e comparam algumas
# respostas com diferenças finitas), então o seu código precisa funcionar em geral, não só nos
# exemplos. As suas respostas são comparadas como na lição 1: pelo valor, seja qual for o recipiente, com
# a tolerância do float32.
# Os exercícios 6 e 7 são opcionais: são verificados como os outros, mas não somam pontos.

# %% [markdown] key="exercises" lang="ru" src="dbc1521d"
# ## Упражнения
#
# Как и раньше: допишите каждую функцию, выполните её ячейку, а затем ячейку с `check` под ней.
# Скрытые проверки вызывают ваши функции в случайных точках (и сравнивают некоторые ответы с
# конечными разностями), поэтому код должен работать в общем случае, а не только на примерах. Ответы сравниваются так же, как в уроке 1: по значению, в чём бы оно ни было, с допуском
# float32.
# Упражнения 6 и 7 необязательные: они проверяются, как остальные, но баллов не добавляют.

# %% [markdown] key="ex1" lang="en"
# ### Exercise 1 · Rounded weights that let the gradient through (2 points)
#
# A network whose weights are rounded to integers is trained with the straight-through estimator
# with a window (the section above). Write `quantized_gradient(w, x, t)`. `w` is a `tf.Variable` of
# shape (n, m) with values between $-2$ and $2$, `x` a tensor of shape (k, n) and `t` a tensor of
# shape (k, m). Inside a tape, compute `c = tf.clip_by_value(w, -1.0, 1.0)` and the rounded weights
# `q = c + tf.stop_gradient(tf.round(w) - c)`, then $L = \operatorname{mean}\big((x q - t)^2\big)$
# (with `x @ q`), and return $\frac{dL}{dw}$. Think first: what is the value of `q`, and which
# entries of the answer are 0? For example, for $w = [[0.3, 1.7], [-1.2, 0.8]]$ the second column
# of the first row and the first column of the second row are 0 whatever `x` and `t` are.

# %% [markdown] key="ex1" lang="es" src="5839433f"
# ### Ejercicio 1 · Pesos redondeados que dejan pasar el gradiente (2 puntos)
#
# Una red cuyos pesos se redondean a enteros se entrena con el estimador *straight-through* con
# ventana (la sección de arriba). Escribe `quantized_gradient(w, x, t)`. `w` es una `tf.Variable` de
# forma (n, m) con valores entre $-2$ y $2$, `x` un tensor de forma (k, n) y `t` un tensor de forma
# (k, m). Dentro de una cinta, calcula `c = tf.clip_by_value(w, -1.0, 1.0)` y los pesos
# redondeados `q = c + tf.stop_gradient(tf.round(w) - c)`, después
# $L = \operatorname{mean}\big((x q - t)^2\big)$ (con `x @ q`), y devuelve $\frac{dL}{dw}$. Piensa
# primero: ¿cuánto vale `q`, y qué entradas de la respuesta son 0? Por ejemplo, para
# $w = [[0{,}3; 1{,}7]; [-1{,}2; 0{,}8]]$, la segunda columna de la primera fila y la primera
# columna de la segunda fila son 0 sean cuales sean `x` y `t`.

# %% [markdown] key="ex1" lang="pt" src="5839433f"
# ### Exercício 1 · Pesos arredondados que deixam o gradiente passar (2 pontos)
#
# Uma rede cujos pesos são arredondados para inteiros é treinada com o estimador *straight-through*
# com janela (a seção acima). Escreva `quantized_gradient(w, x, t)`. `w` é uma `tf.Variable` de
# formato (n, m) com valores entre $-2$ e $2$, `x` um tensor de formato (k, n) e `t` um tensor de
# formato (k, m). Dentro de uma fita, calcule `c = tf.clip_by_value(w, -1.0, 1.0)` e os pesos
# arredondados `q = c + tf.stop_gradient(tf.round(w) - c)`, depois
# $L = \operatorname{mean}\big((x q - t)^2\big)$ (com `x @ q`), e devolva $\frac{dL}{dw}$. Pense
# primeiro: quanto vale `q`, e quais entradas da resposta são 0? Por exemplo, para
# $w = [[0{,}3; 1{,}7]; [-1{,}2; 0{,}8]]$, a segunda coluna da primeira linha e a primeira coluna da
# segunda linha são 0, quaisquer que sejam `x` e `t`.

# %% [markdown] key="ex1" lang="ru" src="5839433f"
# ### Упражнение 1 · Округлённые веса, которые пропускают градиент (2 балла)
#
# Сеть, веса которой округляются до целых, обучают со сквозной оценкой градиента с окном (раздел
# выше). Напишите функцию `quantized_gradient(w, x, t)`. `w` — `tf.Variable` формы (n, m) со
# значениями от $-2$ до $2$, `x` — тензор формы (k, n), `t` — тензор формы (k, m). Внутри ленты
# вычислите `c = tf.clip_by_value(w, -1.0, 1.0)` и округлённые веса
# `q = c + tf.stop_gradient(tf.round(w) - c)`, затем $L = \operatorname{mean}\big((x q - t)^2\big)$
# (через `x @ q`) и верните $\frac{dL}{dw}$. Сначала подумайте: чему равно `q` и какие элементы
# ответа равны 0? Например, при $w = [[0{,}3; 1{,}7]; [-1{,}2; 0{,}8]]$ второй столбец первой строки
# и первый столбец второй строки равны 0 при любых `x` и `t`.

# %% nbgrader="solution" grade_id="l04_ex1_solution"
def quantized_gradient(w, x, t):
    ### BEGIN SOLUTION
    with tf.GradientTape() as tape:
        c = tf.clip_by_value(w, -1.0, 1.0)
        q = c + tf.stop_gradient(tf.round(w) - c)
        loss = tf.reduce_mean((x @ q - t) ** 2)
    return tape.gradient(loss, w)
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
# valores pueden ser mucho mayores que 88 (a partir de ahí, $e^x$ se desborda en float32). Dentro de la
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
# valores podem ser muito maiores que 88 (a partir daí, $e^x$ estoura em float32). Dentro da função, defina
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
# которого могут быть намного больше 88 (уже при $x > 88{,}7$ значение $e^x$ в float32
# переполняется). Внутри неё определите
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
# ### Exercise 3 · A custom gradient that reads a Variable (2 points)
#
# Write `scaled_tanh_gradients(a, x)`. `a` is a trainable `tf.Variable` of shape () and `x` a
# tensor of shape (n,). Inside it, define with `@tf.custom_gradient` a function `scaled_tanh(z)`
# of **one** argument that reads `a` (as a layer reads its weights: `a` is not an argument) and
# returns $y = \tanh(a z)$. A gain like `a` can run away in training, so its gradient is clipped
# in the backward pass, where the clip acts on this function's contribution and nothing else:
# `backward(upstream, variables=None)` returns the gradient for `z`,
# $\text{upstream} \cdot a\,(1 - y^2)$, and a list with the gradient for `a`,
# $\sum \text{upstream} \cdot z\,(1 - y^2)$ clipped to $[-1, 1]$ with `tf.clip_by_value`. For
# $L = \sum_i \text{scaled\_tanh}(x)_i^2 + a^2$ (a penalty on the gain, outside `scaled_tanh`),
# return the list $\left[\frac{dL}{dx}, \frac{dL}{da}\right]$ from one `gradient` call. For
# example, for $a = 0.5$ and $x = [1, -2]$: $\frac{dL}{dx} \approx [0.3634, -0.3199]$; the
# function's gradient for `a`, about $2.0063$, is clipped to $1$, and the penalty adds $2a = 1$, so
# $\frac{dL}{da} = 2$. Clipping the whole $\frac{dL}{da}$ afterwards would give $1$ instead.

# %% [markdown] key="ex3" lang="es" src="e6fa18c0"
# ### Ejercicio 3 · Un gradiente personalizado que lee una variable (2 puntos)
#
# Escribe `scaled_tanh_gradients(a, x)`. `a` es una `tf.Variable` entrenable de forma () y `x`,
# un tensor de forma (n,). Dentro, define con `@tf.custom_gradient` una función
# `scaled_tanh(z)` de **un solo** argumento que lee `a` (como una capa lee sus pesos: `a` no es
# un argumento) y devuelve $y = \tanh(a z)$. Una ganancia como `a` puede dispararse durante el
# entrenamiento, así que su gradiente se recorta en la pasada hacia atrás, donde el recorte actúa
# sobre la contribución de esta función y nada más: `backward(upstream, variables=None)` devuelve
# el gradiente para `z`, $\text{upstream} \cdot a\,(1 - y^2)$, y una lista con el gradiente para
# `a`, $\sum \text{upstream} \cdot z\,(1 - y^2)$ recortado a $[-1, 1]$ con `tf.clip_by_value`. Para
# $L = \sum_i \text{scaled\_tanh}(x)_i^2 + a^2$ (una penalización sobre la ganancia, fuera de
# `scaled_tanh`), devuelve la lista $\left[\frac{dL}{dx}, \frac{dL}{da}\right]$ con una sola
# llamada a `gradient`. Por ejemplo, para $a = 0{,}5$ y $x = [1; -2]$:
# $\frac{dL}{dx} \approx [0{,}3634; -0{,}3199]$; el gradiente de la función para `a`, unos
# $2{,}0063$, se recorta a $1$, y la penalización suma $2a = 1$, así que $\frac{dL}{da} = 2$.
# Recortar después todo $\frac{dL}{da}$ daría $1$.

# %% [markdown] key="ex3" lang="pt" src="e6fa18c0"
# ### Exercício 3 · Um gradiente personalizado que lê uma variável (2 pontos)
#
# Escreva `scaled_tanh_gradients(a, x)`. `a` é uma `tf.Variable` treinável de formato () e `x`,
# um tensor de formato (n,). Dentro dela, defina com `@tf.custom_gradient` uma função
# `scaled_tanh(z)` de **um só** argumento que lê `a` (como uma camada lê os seus pesos: `a` não
# é um argumento) e devolve $y = \tanh(a z)$. Um ganho como `a` pode disparar durante o
# treinamento, então o gradiente dele é recortado na passagem para trás, onde o recorte age sobre
# a contribuição desta função e nada mais: `backward(upstream, variables=None)` devolve o
# gradiente para `z`, $\text{upstream} \cdot a\,(1 - y^2)$, e uma lista com o gradiente para `a`,
# $\sum \text{upstream} \cdot z\,(1 - y^2)$ recortado a $[-1, 1]$ com `tf.clip_by_value`. Para
# $L = \sum_i \text{scaled\_tanh}(x)_i^2 + a^2$ (uma penalização sobre o ganho, fora de
# `scaled_tanh`), devolva a lista $\left[\frac{dL}{dx}, \frac{dL}{da}\right]$ com uma única
# chamada a `gradient`. Por exemplo, para $a = 0{,}5$ e $x = [1; -2]$:
# $\frac{dL}{dx} \approx [0{,}3634; -0{,}3199]$; o gradiente da função para `a`, cerca de
# $2{,}0063$, é recortado para $1$, e a penalização soma $2a = 1$, então $\frac{dL}{da} = 2$.
# Recortar depois o $\frac{dL}{da}$ inteiro daria $1$.

# %% [markdown] key="ex3" lang="ru" src="e6fa18c0"
# ### Упражнение 3 · Собственный градиент функции, которая читает переменную (2 балла)
#
# Напишите `scaled_tanh_gradients(a, x)`. `a` — обучаемая `tf.Variable` формы (), `x` — тензор
# формы (n,). Внутри определите с `@tf.custom_gradient` функцию `scaled_tanh(z)` **одного**
# аргумента, которая читает `a` (как слой читает свои веса: `a` не аргумент) и возвращает
# $y = \tanh(a z)$. Коэффициент усиления вроде `a` может при обучении пойти вразнос, поэтому его
# градиент обрезают в обратном проходе, где обрезка действует только на вклад этой функции:
# `backward(upstream, variables=None)` возвращает градиент по `z`,
# $\text{upstream} \cdot a\,(1 - y^2)$, и список с градиентом по `a`,
# $\sum \text{upstream} \cdot z\,(1 - y^2)$, обрезанным до $[-1, 1]$ с помощью `tf.clip_by_value`.
# Для $L = \sum_i \text{scaled\_tanh}(x)_i^2 + a^2$ (штраф на коэффициент, вне `scaled_tanh`)
# верните список $\left[\frac{dL}{dx}, \frac{dL}{da}\right]$, полученный одним вызовом `gradient`.
# Например, при $a = 0{,}5$ и $x = [1; -2]$: $\frac{dL}{dx} \approx [0{,}3634; -0{,}3199]$;
# градиент функции по `a`, около $2{,}0063$, обрезается до $1$, штраф добавляет $2a = 1$, так что
# $\frac{dL}{da} = 2$. Если обрезать весь $\frac{dL}{da}$ потом, получилось бы $1$.

# %% nbgrader="solution" grade_id="l04_ex3_solution"
def scaled_tanh_gradients(a, x):
    ### BEGIN SOLUTION
    @tf.custom_gradient
    def scaled_tanh(z):
        y = tf.tanh(a * z)

        def backward(upstream, variables=None):
            local = 1.0 - y**2
            d_a = tf.reduce_sum(upstream * z * local)
            return upstream * a * local, [tf.clip_by_value(d_a, -1.0, 1.0)]

        return y, backward

    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(scaled_tanh(x) ** 2) + a**2
    return tape.gradient(loss, [x, a])
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l04_ex3" points=2
from grader import check
check("l04_ex3")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l04_ex3")
### END HIDDEN TESTS

# %% [markdown] key="ex4" lang="en"
# ### Exercise 4 · Truncated backpropagation with `reset` (2 points)
#
# A recurrence $h_t = \tanh(w\, h_{t-1} + x_t)$ run for many steps gives a long tape, and its
# gradient flows back through every step. *Truncated* backpropagation through time keeps only
# the last few steps: the tape forgets everything older than a window of $k$ steps. This is where
# `reset` fits: leaving the `with` block in the middle of the loop would be awkward.
#
# Write `truncated_gradient(w, xs, k)`. `w` is a `tf.Variable` of shape (), `xs` a tensor of
# shape (T,) and `k` a Python int. Start from `h = tf.constant(0.0, dtype=tf.float64)` and,
# inside **one** tape, go through the steps in windows of $k$:
# `for start in range(0, T, k):` call `tape.reset()`, then run the window's steps
# `for t in range(start, min(start + k, T)):` with `h = tf.tanh(w * h + xs[t])`. Return the
# gradient of $L = h_T^2$ with respect to `w`. Only the steps after the last reset count, so the answer depends on $k$:
# for $w = 0.8$ and $x = [0.5, -0.3, 0.9, 0.1, -0.7, 0.4]$ it is about $0.1026$ with $k = 2$ and
# $0.2254$ with $k = 3$ (without any reset, $0.2514$). Why does `w` not need `tape.watch` again
# after a reset?

# %% [markdown] key="ex4" lang="es" src="f2d17605"
# ### Ejercicio 4 · Retropropagación truncada con `tape.reset()` (2 puntos)
#
# Una recurrencia $h_t = \tanh(w\, h_{t-1} + x_t)$ que se ejecuta durante muchos pasos da una
# cinta larga, y su gradiente vuelve hacia atrás por todos los pasos. La retropropagación
# *truncada* en el tiempo se queda solo con los últimos pasos: la cinta olvida todo lo que sea
# más antiguo que una ventana de $k$ pasos. Aquí encaja `reset`: salir del bloque `with` en mitad
# del bucle sería incómodo.
#
# Escribe `truncated_gradient(w, xs, k)`. `w` es una `tf.Variable` de forma (), `xs` un tensor de
# forma (T,) y `k` un `int` de Python. Empieza con `h = tf.constant(0.0, dtype=tf.float64)` y,
# dentro de **una sola** cinta, recorre los pasos en ventanas de $k$:
# `for start in range(0, T, k):` llama a `tape.reset()` y después ejecuta los pasos de la
# ventana, `for t in range(start, min(start + k, T)):`, con `h = tf.tanh(w * h + xs[t])`. Devuelve
# el gradiente de $L = h_T^2$ respecto de `w`. Solo cuentan los pasos posteriores al último
# reinicio, así que la respuesta depende de $k$: para $w = 0{,}8$ y
# `xs` $= [0{,}5; -0{,}3; 0{,}9; 0{,}1; -0{,}7; 0{,}4]$ vale aproximadamente $0{,}1026$ con $k = 2$ y
# $0{,}2254$ con $k = 3$ (sin ningún reinicio, $0{,}2514$). ¿Por qué no hace falta volver a llamar
# a `tape.watch` con `w` después de un reinicio?

# %% [markdown] key="ex4" lang="pt" src="f2d17605"
# ### Exercício 4 · Retropropagação truncada com `tape.reset()` (2 pontos)
#
# Uma recorrência $h_t = \tanh(w\, h_{t-1} + x_t)$ executada por muitos passos dá uma fita longa,
# e o seu gradiente volta por todos os passos. A retropropagação *truncada* no tempo fica só com
# os últimos passos: a fita esquece tudo o que for mais antigo que uma janela de $k$ passos. É aí
# que entra o `reset`: sair do bloco `with` no meio do laço seria complicado.
#
# Escreva `truncated_gradient(w, xs, k)`. `w` é uma `tf.Variable` de formato (), `xs` um tensor de
# formato (T,) e `k` um `int` do Python. Comece com `h = tf.constant(0.0, dtype=tf.float64)` e,
# dentro de **uma única** fita, percorra os passos em janelas de $k$:
# `for start in range(0, T, k):` chame `tape.reset()` e depois execute os passos da janela,
# `for t in range(start, min(start + k, T)):`, com `h = tf.tanh(w * h + xs[t])`. Devolva o
# gradiente de $L = h_T^2$ em relação a `w`. Só contam os passos depois do último reinício, então
# a resposta depende de $k$: para $w = 0{,}8$ e `xs` $= [0{,}5; -0{,}3; 0{,}9; 0{,}1; -0{,}7; 0{,}4]$
# ela vale cerca de $0{,}1026$ com $k = 2$ e $0{,}2254$ com $k = 3$ (sem nenhum reinício,
# $0{,}2514$). Por que `w` não precisa de `tape.watch` de novo depois de um reinício?

# %% [markdown] key="ex4" lang="ru" src="f2d17605"
# ### Упражнение 4 · Усечённое обратное распространение с `tape.reset()` (2 балла)
#
# Рекуррентное вычисление $h_t = \tanh(w\, h_{t-1} + x_t)$, повторённое много шагов, даёт
# длинную запись на ленте, и градиент идёт назад через все шаги. *Усечённое* обратное распространение
# во времени оставляет только последние шаги: лента забывает всё, что старше окна из $k$ шагов.
# Здесь и пригодится `reset`: выходить из блока `with` посреди цикла было бы неудобно.
#
# Напишите функцию `truncated_gradient(w, xs, k)`. `w` — `tf.Variable` формы (), `xs` — тензор
# формы (T,), `k` — целое число Python. Начните с `h = tf.constant(0.0, dtype=tf.float64)` и
# внутри **одной** ленты пройдите шаги окнами по $k$: в цикле `for start in range(0, T, k):`
# вызовите `tape.reset()`, а затем выполните шаги окна,
# `for t in range(start, min(start + k, T)):`, с `h = tf.tanh(w * h + xs[t])`. Верните
# градиент $L = h_T^2$ по `w`. Учитываются только шаги после последнего сброса, поэтому ответ
# зависит от $k$: для $w = 0{,}8$ и `xs` $= [0{,}5; -0{,}3; 0{,}9; 0{,}1; -0{,}7; 0{,}4]$ он примерно
# равен $0{,}1026$ при $k = 2$ и $0{,}2254$ при $k = 3$ (совсем без сброса — $0{,}2514$). Почему
# после сброса не нужно снова вызывать `tape.watch` для `w`?

# %% nbgrader="solution" grade_id="l04_ex4_solution"
def truncated_gradient(w, xs, k):
    ### BEGIN SOLUTION
    h = tf.constant(0.0, dtype=tf.float64)
    steps = int(xs.shape[0])
    with tf.GradientTape() as tape:
        for start in range(0, steps, k):
            tape.reset()
            for t in range(start, min(start + k, steps)):
                h = tf.tanh(w * h + xs[t])
        loss = h**2
    return tape.gradient(loss, w)
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l04_ex4" points=2
from grader import check
check("l04_ex4")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l04_ex4")
### END HIDDEN TESTS

# %% [markdown] key="ex5" lang="en"
# ### Exercise 5 · A look-ahead gradient (2 points)
#
# Some optimizers evaluate the gradient not where the parameters are but one step ahead, at
# $w - \eta\, g$ with $g = \frac{dL}{dw}(w)$, and treat that step $g$ as a constant. With a
# persistent tape you can do it in one recording: the tape answers for $g$ while it is still
# recording, and `stop_recording` keeps that computation off the tape, as in this lesson's
# `stop_recording` section.
#
# Write `lookahead_gradient(w, x, y, lr)`: `w` is a `tf.Variable` of shape (n,), `x` a tensor of
# shape (k, n), `y` a tensor of shape (k,) and `lr` a Python float. With
# $L(v) = \operatorname{mean}\big((x v - y)^2\big)$ (as `tf.reduce_sum(x * v, axis=1) - y`), inside
# one `tf.GradientTape(persistent=True)`: compute `loss = L(w)`; inside
# `with tape.stop_recording():`, compute `g = tape.gradient(loss, w)`, the gradient of that
# recorded `loss` (an $L(w)$ computed again inside the pause would not be recorded, and its
# gradient would be `None`); then, back in the recording, compute $L(w - \eta\, g)$ with $\eta$ =
# `lr`. After the block, return the gradient of $L(w - \eta\, g)$ with respect to `w`. Think
# first: what does the answer become if $g$ is computed while the tape records? For the visible
# example, $w = [1, -0.5]$, $x = [[1, 2], [0.5, -1], [2, 0.3]]$, $y = [1, 0, 2]$ and
# $\eta = 0.3$, the answer is about $[0.879, 0.261]$.

# %% [markdown] key="ex5" lang="es" src="a5d6b478"
# ### Ejercicio 5 · Un gradiente de anticipación (2 puntos)
#
# Algunos optimizadores no evalúan el gradiente donde están los parámetros, sino un paso más
# adelante, en $w - \eta\, g$ con $g = \frac{dL}{dw}(w)$, y tratan ese paso $g$ como una
# constante. Con una cinta persistente se puede hacer en una sola grabación: la cinta responde
# cuánto vale $g$ mientras todavía está grabando, y `stop_recording` deja ese cálculo fuera de la
# cinta, como en la sección de `stop_recording` de esta lección.
#
# Escribe `lookahead_gradient(w, x, y, lr)`: `w` es una `tf.Variable` de forma (n,), `x` un tensor
# de forma (k, n), `y` un tensor de forma (k,) y `lr` un `float` de Python. Con
# $L(v) = \operatorname{mean}\big((x v - y)^2\big)$ (como `tf.reduce_sum(x * v, axis=1) - y`),
# dentro de una sola `tf.GradientTape(persistent=True)`: calcula `loss = L(w)`; dentro de
# `with tape.stop_recording():`, calcula `g = tape.gradient(loss, w)`, el gradiente de esa `loss`
# ya grabada (un $L(w)$ calculado de nuevo durante la pausa no quedaría grabado, y su gradiente
# sería `None`); después, de vuelta en la grabación, calcula $L(w - \eta\, g)$ con $\eta$ = `lr`.
# Tras el bloque, devuelve el gradiente de $L(w - \eta\, g)$ respecto de `w`. Piensa primero: ¿en
# qué se convierte la respuesta si $g$ se calcula mientras la cinta graba? Para el ejemplo
# de la comprobación visible, con $w = [1; -0{,}5]$, $x = [[1; 2]; [0{,}5; -1]; [2; 0{,}3]]$, $y = [1; 0; 2]$ y
# $\eta = 0{,}3$, la respuesta es aproximadamente $[0{,}879; 0{,}261]$.

# %% [markdown] key="ex5" lang="pt" src="a5d6b478"
# ### Exercício 5 · Um gradiente de antecipação (2 pontos)
#
# Alguns otimizadores não avaliam o gradiente onde os parâmetros estão, e sim um passo à frente,
# em $w - \eta\, g$ com $g = \frac{dL}{dw}(w)$, e tratam esse passo $g$ como uma constante. Com uma
# fita persistente dá para fazer isso numa única gravação: a fita responde quanto vale $g$ enquanto
# ainda está gravando, e `stop_recording` deixa esse cálculo fora da fita, como na seção de
# `stop_recording` desta lição.
#
# Escreva `lookahead_gradient(w, x, y, lr)`: `w` é uma `tf.Variable` de formato (n,), `x` um
# tensor de formato (k, n), `y` um tensor de formato (k,) e `lr` um `float` do Python. Com
# $L(v) = \operatorname{mean}\big((x v - y)^2\big)$ (como `tf.reduce_sum(x * v, axis=1) - y`),
# dentro de uma única `tf.GradientTape(persistent=True)`: calcule `loss = L(w)`; dentro de
# `with tape.stop_recording():`, calcule `g = tape.gradient(loss, w)`, o gradiente dessa `loss`
# já gravada (um $L(w)$ calculado de novo durante a pausa não ficaria gravado, e o gradiente dele
# seria `None`); depois, de volta à gravação, calcule $L(w - \eta\, g)$ com $\eta$ = `lr`. Depois
# do bloco, devolva o gradiente de $L(w - \eta\, g)$ em relação a `w`. Pense primeiro: em que a
# resposta se transforma se $g$ for calculado enquanto a fita grava? Para o exemplo da verificação visível, com
# $w = [1; -0{,}5]$, $x = [[1; 2]; [0{,}5; -1]; [2; 0{,}3]]$, $y = [1; 0; 2]$ e $\eta = 0{,}3$, a
# resposta é cerca de $[0{,}879; 0{,}261]$.

# %% [markdown] key="ex5" lang="ru" src="a5d6b478"
# ### Упражнение 5 · Градиент с заглядыванием вперёд (2 балла)
#
# Некоторые оптимизаторы вычисляют градиент не там, где сейчас параметры, а на шаг впереди, в
# точке $w - \eta\, g$, где $g = \frac{dL}{dw}(w)$, и считают этот шаг $g$ константой. С
# персистентной лентой это делается за одну запись: лента сообщает $g$, пока ещё записывает, а
# `stop_recording` не пускает это вычисление на ленту, как в разделе этого урока про
# `stop_recording`.
#
# Напишите функцию `lookahead_gradient(w, x, y, lr)`: `w` — `tf.Variable` формы (n,), `x` — тензор
# формы (k, n), `y` — тензор формы (k,), `lr` — число с плавающей точкой Python. Для
# $L(v) = \operatorname{mean}\big((x v - y)^2\big)$ (как `tf.reduce_sum(x * v, axis=1) - y`)
# внутри одной ленты `tf.GradientTape(persistent=True)`: вычислите `loss = L(w)`; внутри
# `with tape.stop_recording():` вычислите `g = tape.gradient(loss, w)` — градиент уже записанного
# `loss` (значение $L(w)$, вычисленное заново во время паузы, не попало бы в запись, и его
# градиент был бы `None`); затем, снова в записи, вычислите $L(w - \eta\, g)$, где $\eta$ = `lr`.
# После блока верните градиент $L(w - \eta\, g)$ по `w`. Сначала подумайте: во что превратится
# ответ, если вычислить $g$, пока лента записывает? Для примера из открытой проверки, где $w = [1; -0{,}5]$,
# $x = [[1; 2]; [0{,}5; -1]; [2; 0{,}3]]$, $y = [1; 0; 2]$ и $\eta = 0{,}3$, ответ примерно равен
# $[0{,}879; 0{,}261]$.

# %% nbgrader="solution" grade_id="l04_ex5_solution"
def lookahead_gradient(w, x, y, lr):
    ### BEGIN SOLUTION
    def loss_at(v):
        return tf.reduce_mean((tf.reduce_sum(x * v, axis=1) - y) ** 2)

    with tf.GradientTape(persistent=True) as tape:
        loss = loss_at(w)
        with tape.stop_recording():
            g = tape.gradient(loss, w)
        loss_ahead = loss_at(w - lr * g)
    grad = tape.gradient(loss_ahead, w)
    del tape
    return grad
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l04_ex5" points=2
from grader import check
check("l04_ex5")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l04_ex5")
### END HIDDEN TESTS

# %% [markdown] key="ex6" lang="en"
# ### Exercise 6 (optional) · Pausing the tape for a scale factor (no points)
#
# Some losses are divided by a scale that should steer the step size but not the direction, for
# example a *relative* loss: the loss divided by its own current value, used as a constant.
# Write `relative_loss_gradient(w, x, y)`: `w` is a `tf.Variable` of shape (n,), `x` a tensor of
# shape (k, n) and `y` a tensor of shape (k,). Inside one tape, compute the residuals
# $r = x w - y$ (as `tf.reduce_sum(x * w, axis=1) - y`) and $L = \operatorname{mean}(r^2)$; then,
# inside `with tape.stop_recording():`, compute the scale $s = \operatorname{mean}(r^2)$ again;
# after that block, still inside the tape, compute $L / s$, and return its gradient with respect
# to `w`. Think first: what would the gradient be
# if $s$ were recorded too?
#
# *Optional: `check` and the grader run this exercise's checks and show the result, and it adds
# no points.*

# %% [markdown] key="ex6" lang="es" src="f1411a32"
# ### Ejercicio 6 (opcional) · Pausar la cinta para un factor de escala (sin puntos)
#
# Algunas pérdidas se dividen por una escala que debe influir en el tamaño del paso, pero no en
# su dirección; por ejemplo, una pérdida *relativa*: la pérdida dividida por su propio valor
# actual, usado como una constante. Escribe `relative_loss_gradient(w, x, y)`: `w` es una
# `tf.Variable` de forma (n,), `x` un tensor de forma (k, n) e `y` un tensor de forma (k,).
# Dentro de una cinta, calcula los residuos $r = x w - y$ (como
# `tf.reduce_sum(x * w, axis=1) - y`) y $L = \operatorname{mean}(r^2)$; después, dentro de
# `with tape.stop_recording():`, calcula otra vez la escala $s = \operatorname{mean}(r^2)$; tras
# ese bloque, todavía dentro de la cinta, calcula $L / s$, y devuelve su gradiente respecto de
# `w`. Piensa primero: ¿cuál sería el gradiente si
# $s$ también se grabara?
#
# *Opcional: `check` y el corrector ejecutan las comprobaciones de este ejercicio y muestran el
# resultado, pero no suma puntos.*

# %% [markdown] key="ex6" lang="pt" src="f1411a32"
# ### Exercício 6 (opcional) · Pausar a fita para um fator de escala (sem pontos)
#
# Algumas perdas são divididas por uma escala que deve influir no tamanho do passo, mas não na
# sua direção; por exemplo, uma perda *relativa*: a perda dividida pelo seu próprio valor atual,
# usado como constante. Escreva `relative_loss_gradient(w, x, y)`: `w` é uma `tf.Variable` de
# formato (n,), `x` um tensor de formato (k, n) e `y` um tensor de formato (k,). Dentro de uma
# fita, calcule os resíduos $r = x w - y$ (como `tf.reduce_sum(x * w, axis=1) - y`) e
# $L = \operatorname{mean}(r^2)$; depois, dentro de `with tape.stop_recording():`, calcule de novo
# a escala $s = \operatorname{mean}(r^2)$; depois desse bloco, ainda dentro da fita, calcule
# $L / s$, e devolva o gradiente dele em relação a `w`. Pense
# primeiro: qual seria o gradiente se $s$ também fosse gravada?
#
# *Opcional: `check` e o corretor executam as verificações deste exercício e mostram o
# resultado, mas ele não soma pontos.*

# %% [markdown] key="ex6" lang="ru" src="f1411a32"
# ### Упражнение 6 (необязательное) · Пауза в записи ради масштабного множителя (без баллов)
#
# Иногда функцию потерь делят на масштаб, который должен влиять на длину шага, но не на его
# направление; например, *относительная* функция потерь — это функция потерь, делённая на своё
# текущее значение, взятое как константа. Напишите функцию `relative_loss_gradient(w, x, y)`:
# `w` — `tf.Variable` формы (n,), `x` — тензор формы (k, n), `y` — тензор формы (k,). Внутри
# одной ленты вычислите остатки $r = x w - y$ (как `tf.reduce_sum(x * w, axis=1) - y`) и
# $L = \operatorname{mean}(r^2)$; затем внутри `with tape.stop_recording():` ещё раз вычислите
# масштаб $s = \operatorname{mean}(r^2)$; после этого блока, но ещё внутри ленты, вычислите
# $L / s$ и верните его градиент по `w`. Сначала подумайте:
# каким был бы градиент, если бы $s$ тоже записывался?
#
# *Необязательное: `check` и система проверки выполняют проверки этого упражнения и показывают
# результат, но баллов оно не добавляет.*

# %% nbgrader="solution" grade_id="l04_ex6_solution"
def relative_loss_gradient(w, x, y):
    ### BEGIN SOLUTION
    with tf.GradientTape() as tape:
        residual = tf.reduce_sum(x * w, axis=1) - y
        loss = tf.reduce_mean(residual**2)
        with tape.stop_recording():
            scale = tf.reduce_mean(residual**2)
        relative = loss / scale
    return tape.gradient(relative, w)
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l04_ex6" points=0
from grader import check
check("l04_ex6")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l04_ex6")
### END HIDDEN TESTS

# %% [markdown] key="ex7" lang="en"
# ### Exercise 7 (optional) · A gradient with respect to the input only (no points)
#
# To see which input pixels or features a trained layer reacts to, you differentiate with
# respect to the *input* and do not need the weights' gradients at all. Write
# `input_gradient_only(layer, x)`: `layer` is a `tf.keras.layers.Dense` that has already been
# called once, `x` a tensor. Create the tape with `watch_accessed_variables=False` (lesson 2), so
# that it does not watch the layer's variables, watch `x` yourself, and for
# $L = \sum \text{layer}(x)^2$ return the list
# `[tape.gradient(L, x), float(len(tape.watched_variables()))]`: the gradient and the number of
# Variables the tape watched, which shows that the tape watched none of the weights.
#
# *Optional: `check` and the grader run this exercise's checks and show the result, and it adds
# no points.*

# %% [markdown] key="ex7" lang="es" src="004b5140"
# ### Ejercicio 7 (opcional) · Un gradiente solo respecto de la entrada (sin puntos)
#
# Para ver a qué píxeles o características de la entrada reacciona una capa entrenada, se deriva
# respecto de la *entrada*, y los gradientes de los pesos no hacen ninguna falta. Escribe
# `input_gradient_only(layer, x)`: `layer` es una `tf.keras.layers.Dense` a la que ya se ha
# llamado una vez, y `x` un tensor. Crea la cinta con `watch_accessed_variables=False`
# (lección 2), para que no observe las variables de la capa, observa `x` por tu cuenta y,
# para
# $L = \sum \text{layer}(x)^2$, devuelve la lista
# `[tape.gradient(L, x), float(len(tape.watched_variables()))]`: el gradiente y el número de
# variables que observó la cinta, que muestra que la cinta no observó ninguno de los pesos.
#
# *Opcional: `check` y el corrector ejecutan las comprobaciones de este ejercicio y muestran el
# resultado, pero no suma puntos.*

# %% [markdown] key="ex7" lang="pt" src="004b5140"
# ### Exercício 7 (opcional) · Um gradiente só em relação à entrada (sem pontos)
#
# Para ver a que pixels ou atributos da entrada uma camada treinada reage, deriva-se em relação à
# *entrada*, e os gradientes dos pesos não fazem falta nenhuma. Escreva
# `input_gradient_only(layer, x)`: `layer` é uma `tf.keras.layers.Dense` que já foi chamada uma
# vez, e `x` um tensor. Crie a fita com `watch_accessed_variables=False` (lição 2), para que ela
# não observe as variáveis da camada, observe `x` você mesmo e, para
# $L = \sum \text{layer}(x)^2$, devolva a lista
# `[tape.gradient(L, x), float(len(tape.watched_variables()))]`: o gradiente e o número de
# variáveis que a fita observou, o que mostra que a fita não observou nenhum dos pesos.
#
# *Opcional: `check` e o corretor executam as verificações deste exercício e mostram o
# resultado, mas ele não soma pontos.*

# %% [markdown] key="ex7" lang="ru" src="004b5140"
# ### Упражнение 7 (необязательное) · Градиент только по входу (без баллов)
#
# Чтобы увидеть, на какие пиксели или признаки входа реагирует обученный слой, дифференцируют
# по *входу*, а градиенты по весам вовсе не нужны. Напишите функцию
# `input_gradient_only(layer, x)`: `layer` — слой `tf.keras.layers.Dense`, который уже вызывали
# один раз, `x` — тензор. Создайте ленту с `watch_accessed_variables=False` (урок 2), чтобы она
# не отслеживала переменные слоя, сами отследите `x` и для
# $L = \sum \text{layer}(x)^2$ верните список
# `[tape.gradient(L, x), float(len(tape.watched_variables()))]`: градиент и число переменных,
# которые отслеживала лента, — оно показывает, что ни один из весов лента не отслеживала.
#
# *Необязательное: `check` и система проверки выполняют проверки этого упражнения и показывают
# результат, но баллов оно не добавляет.*

# %% nbgrader="solution" grade_id="l04_ex7_solution"
def input_gradient_only(layer, x):
    ### BEGIN SOLUTION
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(x)
        loss = tf.reduce_sum(layer(x) ** 2)
    return [tape.gradient(loss, x), float(len(tape.watched_variables()))]
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l04_ex7" points=0
from grader import check
check("l04_ex7")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l04_ex7")
### END HIDDEN TESTS

# %% [markdown] key="summary" lang="en"
# ## Summary
#
# - `tape.stop_recording()` pauses one tape; `tape.reset()` makes it forget what it recorded;
#   `tf.stop_gradient(x)` turns one value into a constant for every tape. Started from a clipped
#   value, the straight-through trick lets the gradient through inside a window only.
# - `@tf.custom_gradient` returns a value and a `backward(upstream)` that returns
#   `upstream` times the local derivative, for each input. Use it to give an operation a
#   gradient, to clip or otherwise change a gradient, or to compute it stably; a stable value
#   needs a stable formula too. A function that reads Variables gives their gradients too, from
#   `backward(upstream, variables=...)`. Check a gradient you wrote with a nudge, as in lesson 1.
# - `tf.RegisterGradient` and `tf.no_gradient` act on a global registry by operation type, for
#   new operation types (the optional box).
#
# Next lesson: a gradient is itself computed with operations that a tape can record, so tapes
# inside tapes give second derivatives; and Jacobians keep the derivatives of every output
# apart, up to a Hessian and a step of Newton's method.

# %% [markdown] key="summary" lang="es" src="2ab58f0e"
# ## Resumen
#
# - `tape.stop_recording()` pausa una cinta; `tape.reset()` le hace olvidar lo grabado;
#   `tf.stop_gradient(x)` convierte un valor en constante para todas las cintas. Si empieza desde
#   un valor recortado, el truco *straight-through* solo deja pasar el gradiente dentro de una
#   ventana.
# - La función decorada con `@tf.custom_gradient` devuelve un valor y un `backward(upstream)` que
#   devuelve, para cada entrada, `upstream` por la derivada local. Sirve para dar gradiente a una
#   operación, para recortar o modificar un gradiente, o para calcularlo de forma estable; un
#   valor estable necesita también una fórmula estable. Una función que lee variables da también
#   sus gradientes, desde `backward(upstream, variables=...)`. Comprueba con una pequeña
#   perturbación cada gradiente que escribas, como en la lección 1.
# - `tf.RegisterGradient` y `tf.no_gradient` actúan sobre un registro global por tipo de
#   operación, para tipos nuevos (el recuadro opcional).
#
# En la próxima lección: un gradiente también se calcula con operaciones que una cinta puede
# grabar, así que las cintas dentro de cintas dan segundas derivadas; y los jacobianos mantienen
# separadas las derivadas de cada salida, hasta llegar a un hessiano y a un paso del método de
# Newton.

# %% [markdown] key="summary" lang="pt" src="2ab58f0e"
# ## Resumo
#
# - `tape.stop_recording()` pausa uma fita; `tape.reset()` a faz esquecer o que gravou;
#   `tf.stop_gradient(x)` transforma um valor em constante para todas as fitas. Começando por um
#   valor recortado, o truque *straight-through* só deixa o gradiente passar dentro de uma janela.
# - A função decorada com `@tf.custom_gradient` devolve um valor e um `backward(upstream)` que
#   devolve, para cada entrada, `upstream` vezes a derivada local. Serve para dar gradiente a uma
#   operação, para recortar ou modificar um gradiente, ou para calculá-lo de forma estável; um
#   valor estável também precisa de uma fórmula estável. Uma função que lê variáveis dá também os
#   gradientes delas, a partir de `backward(upstream, variables=...)`. Confira com uma pequena
#   perturbação cada gradiente que você escrever, como na lição 1.
# - `tf.RegisterGradient` e `tf.no_gradient` agem sobre um registro global por tipo de operação,
#   para tipos novos (o quadro opcional).
#
# Na próxima lição: um gradiente também é calculado com operações que uma fita pode gravar, então
# fitas dentro de fitas dão segundas derivadas; e as jacobianas mantêm separadas as derivadas de
# cada saída, até chegar a uma hessiana e a um passo do método de Newton.

# %% [markdown] key="summary" lang="ru" src="2ab58f0e"
# ## Итоги
#
# - `tape.stop_recording()` приостанавливает одну ленту; `tape.reset()` заставляет её забыть
#   записанное; `tf.stop_gradient(x)` превращает одно значение в константу для всех лент. Если
#   начать сквозную оценку с обрезанного значения, градиент пройдёт только внутри окна.
# - Функция под декоратором `@tf.custom_gradient` возвращает значение и `backward(upstream)`,
#   который для каждого входа возвращает `upstream`, умноженный на локальную производную. Так
#   можно дать операции градиент, обрезать или иначе изменить градиент или вычислить его
#   устойчиво; для устойчивого значения нужна ещё и устойчивая формула. Функция, которая читает
#   переменные, отдаёт и их градиенты — из `backward(upstream, variables=...)`. Каждый градиент,
#   написанный вручную, проверяйте небольшим сдвигом, как в уроке 1.
# - `tf.RegisterGradient` и `tf.no_gradient` действуют на глобальный реестр по типу операции, для
#   новых типов операций (необязательная врезка).
#
# В следующем уроке: градиент тоже вычисляется операциями, которые лента может записать, поэтому
# ленты внутри лент дают вторые производные; а якобианы хранят производные каждого выхода по
# отдельности — вплоть до гессиана и шага метода Ньютона.

# %% [markdown] key="reflect" lang="en" questions=true
# 1. With `@tf.custom_gradient` you can return any gradient you like, even a wrong one. When is a
#    deliberately "wrong" gradient useful (the straight-through estimator is one case), and how
#    would you test that a custom gradient you meant to be exact really is?
# 2. `tape.stop_recording()`, `tf.stop_gradient` and `tf.no_gradient` all make a gradient
#    disappear, but at different scopes: a block of code, one value, every operation of one type in
#    the whole process. For each, in what situation is it the right tool, and what bug would it
#    cause where one of the other two belonged?
# 3. In exercise 2 you wrote a stable formula for the value of softplus. Once the forward formula
#    is stable, is the tape's ordinary gradient of that formula good enough, or is a custom
#    gradient still worth having? Think about what each costs and what each can get wrong.

# %% [markdown] key="reflect" lang="es" src="58b1254b"
# 1. Con `@tf.custom_gradient` puedes devolver el gradiente que quieras, incluso uno incorrecto.
#    ¿Cuándo es útil un gradiente «incorrecto» a propósito (el estimador *straight-through* es un
#    caso), y cómo comprobarías que un gradiente personalizado que querías exacto de verdad lo es?
# 2. `tape.stop_recording()`, `tf.stop_gradient` y `tf.no_gradient` hacen desaparecer un
#    gradiente, pero con alcances distintos: un bloque de código, un valor, todas las operaciones de
#    un tipo en todo el proceso. Para cada una, ¿en qué situación es la herramienta adecuada, y qué
#    error causaría donde correspondía una de las otras dos?
# 3. En el ejercicio 2 escribiste una fórmula estable para el valor de *softplus*. Una vez que la
#    fórmula de la pasada hacia adelante es estable, ¿basta con el gradiente normal que la cinta
#    calcula a partir de ella, o sigue valiendo la pena un gradiente personalizado? Piensa en lo que
#    cuesta cada opción y en qué puede fallar cada una.

# %% [markdown] key="reflect" lang="pt" src="58b1254b"
# 1. Com `@tf.custom_gradient` você pode devolver o gradiente que quiser, até um errado. Quando um
#    gradiente “errado” de propósito é útil (o estimador *straight-through* é um caso), e como
#    você testaria que um gradiente personalizado que deveria ser exato realmente é?
# 2. `tape.stop_recording()`, `tf.stop_gradient` e `tf.no_gradient` fazem um gradiente sumir,
#    mas com alcances diferentes: um bloco de código, um valor, todas as operações de um tipo no
#    processo inteiro. Para cada um, em que situação ele é a ferramenta certa, e que erro ele
#    causaria se fosse usado onde caberia um dos outros dois?
# 3. No exercício 2 você escreveu uma fórmula estável para o valor da *softplus*. Quando a fórmula
#    da passagem para a frente já é estável, o gradiente comum que a fita calcula a partir dela
#    basta, ou ainda vale a pena ter um gradiente personalizado? Pense no que cada opção custa e no
#    que cada uma pode errar.

# %% [markdown] key="reflect" lang="ru" src="58b1254b"
# 1. С `@tf.custom_gradient` можно вернуть какой угодно градиент, даже неверный. Когда намеренно
#    «неверный» градиент полезен (один такой случай — сквозная оценка градиента, *straight-through*) и как проверить,
#    что собственный градиент, задуманный точным, действительно точен?
# 2. `tape.stop_recording()`, `tf.stop_gradient` и `tf.no_gradient` убирают градиент, но в разных
#    масштабах: блок кода, одно значение, все операции одного типа во всём процессе. Для каждого из
#    них: в какой ситуации это правильный инструмент и к какой ошибке он привёл бы там, где уместен
#    один из двух других?
# 3. В упражнении 2 вы написали устойчивую формулу для значения *softplus*. Если формула прямого
#    прохода уже устойчива, хватит ли обычного градиента, который лента вычислит по ней, или
#    собственный градиент всё равно нужен? Подумайте, чего стоит каждый вариант и в чём каждый может
#    ошибиться.
