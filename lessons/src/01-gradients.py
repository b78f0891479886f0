# ---
# jupyter:
#   minitape:
#     lesson: 01-gradients
# ---

# %% [markdown] key="title" lang="en"
# # Lesson 1 · Gradients and tapes
#
# Training a neural network means nudging its parameters, step by step, in the direction that
# lowers a loss; that direction is the opposite of the *gradient*. Working out gradients by hand stops
# being practical after a couple of layers. *Automatic differentiation* computes them exactly,
# from the very code that computes the loss.
#
# In this lesson you will learn:
#
# - what a gradient tape records while your code runs, and how it uses that record;
# - how to get the gradient of a scalar with respect to scalars and to tensors of any shape;
# - how to ask for many gradients at once, with lists and dictionaries of sources;
# - how to get the gradients of a model's variables.

# %% [markdown] key="title" lang="es" src="78eb4ddc"
# # Lección 1 · Gradientes y cintas
#
# Entrenar una red neuronal consiste en mover sus parámetros, paso a paso, en la dirección en
# la que baja una función de pérdida; esa dirección es la opuesta al *gradiente*. Calcular
# gradientes a mano deja de ser práctico en cuanto el modelo tiene un par de capas. La
# *diferenciación automática* los calcula de forma exacta a partir del mismo código que
# calcula la pérdida.
#
# En esta lección aprenderás:
#
# - qué graba una cinta (*gradient tape*) mientras se ejecuta tu código y cómo usa esa
#   grabación;
# - cómo obtener el gradiente de un escalar respecto de escalares y de tensores de cualquier forma;
# - cómo pedir muchos gradientes a la vez, con listas y diccionarios de fuentes;
# - cómo obtener los gradientes de las variables de un modelo.

# %% [markdown] key="title" lang="pt" src="78eb4ddc"
# # Lição 1 · Gradientes e fitas
#
# Treinar uma rede neural é ajustar seus parâmetros, passo a passo, na direção em que a função
# de perda diminui; essa direção é a oposta ao *gradiente*. Calcular gradientes à mão deixa de
# ser viável assim que o modelo ganha duas ou três camadas. A *diferenciação automática* os
# calcula de forma exata a partir do próprio código que calcula a perda.
#
# Nesta lição você vai aprender:
#
# - o que uma fita (*gradient tape*) grava enquanto o seu código roda e como ela usa essa
#   gravação;
# - como obter o gradiente de um escalar em relação a escalares e a tensores de qualquer formato;
# - como pedir vários gradientes de uma vez, com listas e dicionários de fontes;
# - como obter os gradientes das variáveis de um modelo.

# %% [markdown] key="title" lang="ru" src="78eb4ddc"
# # Урок 1 · Градиенты и ленты
#
# Обучить нейронную сеть — значит шаг за шагом сдвигать её параметры туда, где функция потерь
# уменьшается; это направление противоположно *градиенту*. Считать градиенты вручную становится
# непрактично, как только в модели появляется хотя бы пара слоёв. *Автоматическое
# дифференцирование* вычисляет их точно — по тому же коду, который вычисляет потери.
#
# В этом уроке вы узнаете:
#
# - что записывает градиентная лента (*gradient tape*) во время работы вашего кода и как она
#   использует эту запись;
# - как найти градиент скаляра по скалярам и по тензорам любой формы;
# - как запросить сразу много градиентов, передав списки и словари источников;
# - как получить градиенты по переменным модели.

# %% [markdown] key="setup" lang="en"
# We write `import minitape as tf`. minitape is the small autodiff engine of this course; its
# API copies TensorFlow's (`tf.Variable`, `tf.GradientTape`, `tf.reduce_mean`, …), so what you
# learn here carries over to TensorFlow: every lesson's code also runs with
# `import tensorflow as tf`, except the cells that use the course's own tools, whose first line
# says so. <!-- claim: course.runs-on-tensorflow -->

# %% [markdown] key="setup" lang="es" src="59219a20"
# Escribimos `import minitape as tf`. minitape es el pequeño motor de diferenciación automática
# de este curso; su API copia la de TensorFlow (`tf.Variable`, `tf.GradientTape`,
# `tf.reduce_mean`, …), así que lo que aprendas aquí te servirá en TensorFlow: el código de
# cada lección funciona también con `import tensorflow as tf`, salvo las celdas que usan
# herramientas propias del curso, que lo indican en su primera línea. <!-- claim: course.runs-on-tensorflow -->

# %% [markdown] key="setup" lang="pt" src="59219a20"
# Escrevemos `import minitape as tf`. O minitape é o pequeno motor de diferenciação automática
# deste curso; sua API copia a do TensorFlow (`tf.Variable`, `tf.GradientTape`,
# `tf.reduce_mean`, …), então o que você aprender aqui vale no TensorFlow: o código de cada
# lição também roda com `import tensorflow as tf`, exceto as células que usam ferramentas
# próprias do curso, que avisam isso na primeira linha. <!-- claim: course.runs-on-tensorflow -->

# %% [markdown] key="setup" lang="ru" src="59219a20"
# Мы пишем `import minitape as tf`. minitape — небольшой движок автоматического
# дифференцирования, на котором построен курс; его API повторяет API TensorFlow
# (`tf.Variable`, `tf.GradientTape`, `tf.reduce_mean`, …), так что всё изученное здесь
# пригодится и в TensorFlow: код каждого урока работает и с `import tensorflow as tf`,
# кроме ячеек с инструментами самого курса — об этом сказано в их первой строке. <!-- claim: course.runs-on-tensorflow -->

# %% key="setup-code"
import numpy as np
import matplotlib.pyplot as plt

import minitape as tf
from lessons.figures import describe
from lessons.i18n import t
from lessons.widgets import plot_function_and_derivative, tangent_explorer

# %% [markdown] key="passes" lang="en"
# ## Forward pass, backward pass
#
# To differentiate automatically, the engine must remember which operations ran, in which
# order and on which values, while your code computes its result: that is the *forward pass*.
# Then, in the *backward pass*, it walks that list of operations in reverse order and applies
# the chain rule at each step. The list is called the *tape*, and the method *reverse-mode
# differentiation*.

# %% [markdown] key="passes" lang="es" src="289a4331"
# ## Pasada hacia adelante, pasada hacia atrás
#
# Para derivar automáticamente, el motor tiene que recordar qué operaciones se ejecutaron, en
# qué orden y sobre qué valores, mientras tu código calcula su resultado: es la *pasada hacia
# adelante* (*forward pass*). Después, en la *pasada hacia atrás* (*backward pass*), recorre esa
# lista de operaciones en orden inverso y aplica la regla de la cadena en cada paso. A esa
# lista la llamamos *cinta* (*tape*), y al método, *diferenciación en modo inverso*.

# %% [markdown] key="passes" lang="pt" src="289a4331"
# ## Passagem para a frente, passagem para trás
#
# Para derivar automaticamente, o motor precisa lembrar quais operações foram executadas, em
# que ordem e com quais valores, enquanto o seu código calcula o resultado: essa é a
# *passagem para a frente* (*forward pass*). Depois, na *passagem para trás* (*backward
# pass*), ele percorre essa lista de operações na ordem inversa e aplica a regra da cadeia a
# cada passo. Essa lista se chama *fita* (*tape*), e o método, *diferenciação em modo reverso*.

# %% [markdown] key="passes" lang="ru" src="289a4331"
# ## Прямой и обратный проход
#
# Чтобы дифференцировать автоматически, движок должен запомнить, какие операции выполнялись,
# в каком порядке и над какими значениями, пока ваш код вычислял результат: это *прямой
# проход* (*forward pass*). Затем, во время *обратного прохода* (*backward pass*), он проходит
# этот список операций в обратном порядке и на каждом шаге применяет цепное правило. Такой
# список называют *лентой* (*tape*), а сам метод — *дифференцированием в обратном режиме*.

# %% [markdown] key="first-tape" lang="en"
# ## Your first tape
#
# `tf.GradientTape` is a context manager: the operations executed inside its `with` block are
# recorded on the tape. Here it records the computation of $y = x^2$ for a variable $x = 3$:

# %% [markdown] key="first-tape" lang="es" src="f271152b"
# ## Tu primera cinta
#
# `tf.GradientTape` es un gestor de contexto: las operaciones que se ejecutan dentro de su
# bloque `with` quedan grabadas en la cinta. Aquí graba el cálculo de $y = x^2$ para una
# variable $x = 3$:

# %% [markdown] key="first-tape" lang="pt" src="f271152b"
# ## Sua primeira fita
#
# `tf.GradientTape` é um gerenciador de contexto: as operações executadas dentro do seu bloco
# `with` ficam gravadas na fita. Aqui ela grava o cálculo de $y = x^2$ para uma variável
# $x = 3$:

# %% [markdown] key="first-tape" lang="ru" src="f271152b"
# ## Ваша первая лента
#
# `tf.GradientTape` — это контекстный менеджер: операции, выполненные внутри его блока `with`,
# записываются на ленту. Здесь лента записывает вычисление $y = x^2$ для переменной $x = 3$:

# %% key="first-tape-code"
x = tf.Variable(3.0)

with tf.GradientTape() as tape:
    y = x**2

y

# %% [markdown] key="gradient" lang="en"
# Once the operations are recorded, `tape.gradient(target, sources)` computes the gradient of
# the *target* (usually a loss) with respect to the *sources* (usually the model's variables).
# Since $y = x^2$, we expect $\frac{dy}{dx} = 2x = 6$:

# %% [markdown] key="gradient" lang="es" src="bed4744b"
# Con las operaciones ya grabadas, `tape.gradient(target, sources)` calcula el gradiente del
# *objetivo* (`target`, casi siempre una pérdida) respecto de las *fuentes* (`sources`, casi
# siempre las variables del modelo). Como $y = x^2$, esperamos $\frac{dy}{dx} = 2x = 6$:

# %% [markdown] key="gradient" lang="pt" src="bed4744b"
# Com as operações gravadas, `tape.gradient(target, sources)` calcula o gradiente do *alvo*
# (`target`, em geral uma perda) em relação às *fontes* (`sources`, em geral as variáveis do
# modelo). Como $y = x^2$, esperamos $\frac{dy}{dx} = 2x = 6$:

# %% [markdown] key="gradient" lang="ru" src="bed4744b"
# Когда операции записаны, `tape.gradient(target, sources)` вычисляет градиент *цели*
# (`target`, обычно это функция потерь) по *источникам* (`sources`, обычно это переменные
# модели). Раз $y = x^2$, мы ожидаем $\frac{dy}{dx} = 2x = 6$:

# %% key="gradient-code"
dy_dx = tape.gradient(y, x)
print(dy_dx.numpy())

# %% [markdown] key="recorded" lang="en"
# ## What did the tape record?
#
# A tape does not store a formula. It stores each operation together with the tensors that
# went in and came out, so that the backward pass can evaluate every local derivative at the
# right values. The drawing below shows what a tape recorded for $y = x^2 + 2x$: each tensor
# is a box with its value and shape, each operation sits on the arrows that lead from its
# inputs to its output, and the watched variable is highlighted. <!-- claim: l01.drawing -->

# %% [markdown] key="recorded" lang="es" src="5c30b026"
# ## ¿Qué grabó la cinta?
#
# Una cinta no guarda una fórmula. Guarda cada operación junto con los tensores que entraron y
# salieron de ella, para que la pasada hacia atrás pueda evaluar cada derivada local en los
# valores correctos. El dibujo de abajo muestra lo que grabó una cinta para $y = x^2 + 2x$:
# cada tensor es una caja con su valor y su forma, cada operación está sobre las flechas que
# van de sus entradas a su salida, y la variable observada aparece resaltada. <!-- claim: l01.drawing -->

# %% [markdown] key="recorded" lang="pt" src="5c30b026"
# ## O que a fita gravou?
#
# Uma fita não guarda uma fórmula. Ela guarda cada operação junto com os tensores que entraram
# e saíram dela, para que a passagem para trás possa avaliar cada derivada local nos valores
# certos. O desenho abaixo mostra o que uma fita gravou para $y = x^2 + 2x$: cada tensor é
# uma caixa com seu valor e formato, cada operação fica sobre as setas que vão das suas entradas
# até a sua saída, e a variável observada aparece destacada. <!-- claim: l01.drawing -->

# %% [markdown] key="recorded" lang="ru" src="5c30b026"
# ## Что записала лента?
#
# Лента хранит не формулу, а каждую операцию вместе с тензорами, которые в неё вошли и из неё
# вышли: так обратный проход сможет вычислить каждую локальную производную в нужной точке.
# На рисунке ниже показано, что записала лента для $y = x^2 + 2x$: каждый тензор — это блок
# со значением и формой, каждая операция стоит на стрелках, ведущих от её входов к выходу,
# а отслеживаемая переменная выделена цветом. <!-- claim: l01.drawing -->

# %% key="recorded-code"
x = tf.Variable(3.0)
with tf.GradientTape() as tape:
    y = x**2 + 2 * x

# %% key="recorded-draw" tf="course"
from minitape.debugging import draw

draw(tape)

# %% [markdown] key="recorded-backward" lang="en"
# Read the drawing from $y$ back to $x$ and you are doing the chain rule: $x$ feeds two
# operations, so the gradient that reaches it is the sum over both paths, $2x$ from the square
# plus $2$ from the product. <!-- claim: l01.two-paths --> At $x = 3$ that is $\frac{dy}{dx} = 2 \cdot 3 + 2 = 8$:

# %% [markdown] key="recorded-backward" lang="es" src="6a429902"
# Si lees el dibujo desde $y$ hacia atrás hasta $x$, estás aplicando la regla de la cadena:
# $x$ entra en dos operaciones, así que el gradiente que le llega es la suma de ambos caminos,
# $2x$ por el cuadrado más $2$ por el producto. <!-- claim: l01.two-paths --> En $x = 3$ resulta
# $\frac{dy}{dx} = 2 \cdot 3 + 2 = 8$:

# %% [markdown] key="recorded-backward" lang="pt" src="6a429902"
# Ler o desenho de $y$ de volta até $x$ é aplicar a regra da cadeia: $x$ entra em duas
# operações, então o gradiente que chega a ele é a soma dos dois caminhos, $2x$ vindo do
# quadrado mais $2$ vindo do produto. <!-- claim: l01.two-paths --> Em $x = 3$ isso dá $\frac{dy}{dx} = 2 \cdot 3 + 2 = 8$:

# %% [markdown] key="recorded-backward" lang="ru" src="6a429902"
# Читая рисунок от $y$ назад к $x$, вы применяете цепное правило: $x$ входит в две операции,
# поэтому пришедший к нему градиент — это сумма по обоим путям: $2x$ от возведения в квадрат
# плюс $2$ от умножения. <!-- claim: l01.two-paths --> При $x = 3$ получаем $\frac{dy}{dx} = 2 \cdot 3 + 2 = 8$:

# %% key="recorded-backward-code"
print(tape.gradient(y, x).numpy())

# %% [markdown] key="one-shot" lang="en"
# ## A tape answers once
#
# By default, `gradient` releases the tape's record (and the intermediate tensors it keeps
# alive) as soon as it returns, to save memory. Asking the same tape a second time is an error:

# %% [markdown] key="one-shot" lang="es" src="8a758cba"
# ## Una cinta responde una sola vez
#
# Por defecto, `gradient` libera la grabación de la cinta (y los tensores intermedios que
# conserva) en cuanto termina, para ahorrar memoria. Preguntarle otra vez a la misma
# cinta produce un error:

# %% [markdown] key="one-shot" lang="pt" src="8a758cba"
# ## Uma fita responde uma vez só
#
# Por padrão, `gradient` libera a gravação da fita (e os tensores intermediários que ela
# conserva) assim que termina, para economizar memória. Perguntar de novo à mesma fita gera
# um erro:

# %% [markdown] key="one-shot" lang="ru" src="8a758cba"
# ## Лента отвечает один раз
#
# По умолчанию `gradient`, закончив работу, сразу освобождает запись ленты (и промежуточные
# тензоры, которые она удерживает), чтобы сэкономить память. Повторный запрос градиента у той
# же ленты приводит к ошибке:

# %% key="one-shot-code"
try:
    tape.gradient(y, x)
except RuntimeError as error:
    print(t("l01.gloss.one_shot"))
    print("RuntimeError:", error)

# %% [markdown] key="persistent" lang="en"
# To ask several questions about one computation, create the tape with `persistent=True`.
# A *persistent* tape keeps its record until the tape object itself goes away, so delete it
# with `del` when you are done:

# %% [markdown] key="persistent" lang="es" src="ee3a161e"
# Para hacer varias preguntas sobre un mismo cálculo, crea la cinta con `persistent=True`.
# Una cinta *persistente* conserva su grabación hasta que desaparece el propio objeto cinta,
# así que, cuando termines, suelta la referencia con `del tape`:

# %% [markdown] key="persistent" lang="pt" src="ee3a161e"
# Para fazer várias perguntas sobre o mesmo cálculo, crie a fita com `persistent=True`. Uma
# fita *persistente* mantém a gravação até que o próprio objeto fita deixe de existir; por
# isso, quando terminar, solte a referência com `del tape`:

# %% [markdown] key="persistent" lang="ru" src="ee3a161e"
# Чтобы задать несколько вопросов об одном вычислении, создайте ленту с `persistent=True`.
# *Персистентная* (*persistent*) лента хранит запись, пока существует сам объект ленты,
# поэтому, закончив работу, удалите ссылку на неё: `del tape`.

# %% key="persistent-code"
x = tf.Variable(3.0)
with tf.GradientTape(persistent=True) as tape:
    y = x * x
    z = y * y

print(tape.gradient(z, x).numpy())  # dz/dx = 4x³ = 108
print(tape.gradient(y, x).numpy())  # dy/dx = 2x = 6
del tape

# %% [markdown] key="stepper" lang="en"
# ## One backward pass by hand
#
# Before you let the tape do it, do its work once yourself, on the tape above: $y = x \cdot x$,
# $z = y \cdot y$ at $x = 3$. The backward pass starts at the target with
# $\frac{dz}{dz} = 1$ and walks the record from the last operation to the first, multiplying by
# each local derivative:
#
# 1. $z = y \cdot y$: $\frac{dz}{dy} = 1 \cdot 2y = 18$ (because $y = 9$);
# 2. $y = x \cdot x$: $\frac{dz}{dx} = \frac{dz}{dy} \cdot 2x = 18 \cdot 6 = 108$.
#
# Now step through the same pass with `minitape.debugging.stepper`: press *Next* and, before
# each step, say which gradient will appear in the table under the drawing. <!-- claim: l01.stepper --> The last step holds
# 108, what `tape.gradient` returned above.

# %% [markdown] key="stepper" lang="es" src="23a8a676"
# ## Una pasada hacia atrás a mano
#
# Antes de dejar que lo haga la cinta, haz tú su trabajo una vez, con la cinta de arriba:
# $y = x \cdot x$, $z = y \cdot y$ en $x = 3$. La pasada hacia atrás empieza en el objetivo con
# $\frac{dz}{dz} = 1$ y recorre la grabación desde la última operación hasta la primera,
# multiplicando por cada derivada local:
#
# 1. $z = y \cdot y$: $\frac{dz}{dy} = 1 \cdot 2y = 18$ (porque $y = 9$);
# 2. $y = x \cdot x$: $\frac{dz}{dx} = \frac{dz}{dy} \cdot 2x = 18 \cdot 6 = 108$.
#
# Ahora recorre la misma pasada paso a paso con `minitape.debugging.stepper`: pulsa *Siguiente*
# y, antes de cada paso, di qué gradiente va a aparecer en la tabla bajo el dibujo. <!-- claim: l01.stepper --> El último
# paso contiene 108, lo que devolvió `tape.gradient` arriba.

# %% [markdown] key="stepper" lang="pt" src="23a8a676"
# ## Uma passagem para trás à mão
#
# Antes de deixar a fita fazer isso, faça você mesmo o trabalho dela uma vez, com a fita acima:
# $y = x \cdot x$, $z = y \cdot y$ em $x = 3$. A passagem para trás começa no alvo com
# $\frac{dz}{dz} = 1$ e percorre a gravação da última operação até a primeira, multiplicando
# por cada derivada local:
#
# 1. $z = y \cdot y$: $\frac{dz}{dy} = 1 \cdot 2y = 18$ (porque $y = 9$);
# 2. $y = x \cdot x$: $\frac{dz}{dx} = \frac{dz}{dy} \cdot 2x = 18 \cdot 6 = 108$.
#
# Agora percorra a mesma passagem passo a passo com `minitape.debugging.stepper`: clique em
# *Próximo* e, antes de cada passo, diga que gradiente vai aparecer na tabela abaixo do desenho. <!-- claim: l01.stepper -->
# O último passo contém 108, o que `tape.gradient` devolveu acima.

# %% [markdown] key="stepper" lang="ru" src="23a8a676"
# ## Один обратный проход вручную
#
# Прежде чем доверить эту работу ленте, один раз проделайте её сами для примера выше:
# $y = x \cdot x$ и $z = y \cdot y$ при $x = 3$. Обратный проход начинается с цели, где
# $\frac{dz}{dz} = 1$, и идёт по записи от последней операции к первой, умножая на каждую
# локальную производную:
#
# 1. $z = y \cdot y$: $\frac{dz}{dy} = 1 \cdot 2y = 18$ (потому что $y = 9$);
# 2. $y = x \cdot x$: $\frac{dz}{dx} = \frac{dz}{dy} \cdot 2x = 18 \cdot 6 = 108$.
#
# Теперь пройдите тот же проход по шагам с `minitape.debugging.stepper`: нажимайте *Далее* и
# перед каждым шагом предсказывайте, какой градиент появится в таблице под рисунком. <!-- claim: l01.stepper --> На последнем
# шаге будет 108 — то, что вернул `tape.gradient` выше.

# %% key="stepper-code" tf="course"
from minitape.debugging import stepper

x = tf.Variable(3.0)
with tf.GradientTape(persistent=True) as tape:
    y = x * x
    z = y * y

stepper(tape, z, x)

# %% [markdown] key="numeric" lang="en"
# ## Checking a gradient with a nudge
#
# A derivative is the slope you see when you nudge $x$ a little. The *central difference*
# $\frac{f(x + h) - f(x - h)}{2h}$ approaches $f'(x)$ as $h$ shrinks. It is slower and less
# accurate than the tape (two evaluations of $f$ per input), but it needs nothing except $f$
# itself, so it is the standard way to check a gradient: *gradient checking*. Make it a habit:
# whenever you write a gradient yourself (lessons 4 and 7 ask you to), compare it with a nudge.
# Rounding limits how small $h$ may be, so check in float64 with $h$ around $10^{-5}$; the two
# answers should agree to eight digits or more:

# %% [markdown] key="numeric" lang="es" src="f15063c0"
# ## Comprobar un gradiente con una pequeña perturbación
#
# Una derivada es la pendiente que ves cuando mueves $x$ un poco. La *diferencia central*
# $\frac{f(x + h) - f(x - h)}{2h}$ se acerca a $f'(x)$ a medida que $h$ se hace pequeño. Es más
# lenta y menos exacta que la cinta (dos evaluaciones de $f$ por cada entrada), pero no necesita
# nada más que la propia $f$, así que es la forma habitual de comprobar un gradiente: la
# *comprobación de gradientes* (*gradient checking*). Conviértela en un hábito: cada vez que
# escribas tú un gradiente (las lecciones 4 y 7 te lo piden), compáralo con una diferencia
# central. El redondeo limita lo pequeño que puede ser $h$, así que comprueba en float64 con $h$ en torno a
# $10^{-5}$; las dos respuestas deberían coincidir en ocho cifras o más:

# %% [markdown] key="numeric" lang="pt" src="f15063c0"
# ## Conferir um gradiente com uma pequena perturbação
#
# Uma derivada é a inclinação que você vê ao mover $x$ um pouco. A *diferença central*
# $\frac{f(x + h) - f(x - h)}{2h}$ se aproxima de $f'(x)$ à medida que $h$ diminui. Ela é mais
# lenta e menos exata que a fita (duas avaliações de $f$ por entrada), mas não precisa de nada
# além da própria $f$; por isso é a forma padrão de conferir um gradiente: a *verificação de
# gradientes* (*gradient checking*). Transforme isso em hábito: sempre que você mesmo escrever um
# gradiente (as lições 4 e 7 pedem isso), compare-o com uma diferença central. O arredondamento
# limita quão pequeno $h$ pode ser, então confira em float64 com $h$ por volta de $10^{-5}$; as duas
# respostas devem coincidir em oito casas ou mais:

# %% [markdown] key="numeric" lang="ru" src="f15063c0"
# ## Проверка градиента небольшим сдвигом
#
# Производная — это наклон, который видно, если чуть-чуть сдвинуть $x$. *Центральная разность*
# $\frac{f(x + h) - f(x - h)}{2h}$ стремится к $f'(x)$ при $h \to 0$. Она медленнее
# и менее точна, чем лента (два вычисления $f$ на каждый вход), зато ей не нужно ничего, кроме
# самой $f$, поэтому это стандартный способ проверить градиент — *проверка градиента*
# (*gradient checking*). Возьмите её за правило: всякий раз, когда пишете градиент сами (в уроках
# 4 и 7 это понадобится), сравнивайте его с центральной разностью. Из-за округления $h$ нельзя
# брать слишком маленьким, поэтому проверяйте во float64 с $h$ порядка $10^{-5}$; результаты
# должны совпадать не менее чем в восьми значащих цифрах:

# %% key="numeric-code"
def g(x):
    return tf.sin(x) * x**2


x = tf.Variable(1.5, dtype=tf.float64)
with tf.GradientTape() as tape:
    y = g(x)
from_tape = tape.gradient(y, x).numpy()

h = 1e-5
nudge = (g(x + h) - g(x - h)).numpy() / (2 * h)
print(t("l01.numeric.compare", tape=f"{from_tape:.8f}", nudge=f"{nudge:.8f}",
        diff=f"{abs(from_tape - nudge):.1e}"))

# %% [markdown] key="numeric-direction" lang="en"
# ### One nudge for a whole gradient
#
# For a tensor source, nudging each of its $n$ elements in turn costs $2n$ evaluations of $f$. A
# single nudge along a *direction* checks the whole gradient at once. Move $x$ along a tensor $v$
# of the same shape: by the chain rule, the slope of $t \mapsto f(x + t v)$ at $t = 0$ is
# $\sum_i \frac{\partial f}{\partial x_i}\, v_i$, the dot product of the gradient with $v$, and a
# central difference measures the same slope, $\frac{f(x + h v) - f(x - h v)}{2h}$. Draw $v$ at
# random: a wrong gradient then predicts a wrong slope, short of a very unlucky draw.
#
# Compare the two slopes by their *relative error*, $\frac{|a - b|}{\max(|a|, |b|)}$, not by their
# difference: a difference of $0.01$ is tiny for a slope of $1000$ and huge for a slope of
# $0.001$. In float64 with $h = 10^{-5}$, a right gradient gives a relative error around
# $10^{-10}$ or less, a wrong one $10^{-3}$ or more. Below, the tape's gradient of
# $f(x) = \sum_i x_i^2 \sin x_i$ passes, and a gradient that forgets one term of the product rule
# does not:

# %% [markdown] key="numeric-direction" lang="es" src="8758b141"
# ### Una sola perturbación para todo un gradiente
#
# Si la fuente es un tensor, perturbar uno por uno sus $n$ elementos cuesta $2n$ evaluaciones de
# $f$. Una sola perturbación a lo largo de una *dirección* comprueba todo el gradiente a la vez.
# Mueve $x$ a lo largo de un tensor $v$ de la misma forma: por la regla de la cadena, la pendiente
# de $t \mapsto f(x + t v)$ en $t = 0$ es $\sum_i \frac{\partial f}{\partial x_i}\, v_i$, el
# producto escalar del gradiente por $v$, y una diferencia central mide esa misma pendiente,
# $\frac{f(x + h v) - f(x - h v)}{2h}$. Elige $v$ al azar: así, un gradiente erróneo predice una
# pendiente errónea, salvo que tengas muy mala suerte.
#
# Compara las dos pendientes por su *error relativo*, $\frac{|a - b|}{\max(|a|, |b|)}$, y no por
# su diferencia: una diferencia de $0{,}01$ es minúscula para una pendiente de $1000$ y enorme
# para una de $0{,}001$. En float64 con $h = 10^{-5}$, un gradiente correcto da un error relativo
# de unos $10^{-10}$ o menos, y uno erróneo, de $10^{-3}$ o más. Abajo, el gradiente que da la
# cinta para $f(x) = \sum_i x_i^2 \sin x_i$ supera la comprobación, y uno al que le falta un
# término de la regla del producto no la supera:

# %% [markdown] key="numeric-direction" lang="pt" src="8758b141"
# ### Uma única perturbação para um gradiente inteiro
#
# Se a fonte é um tensor, perturbar cada um dos seus $n$ elementos, um de cada vez, custa $2n$
# avaliações de $f$. Uma única perturbação ao longo de uma *direção* confere o gradiente inteiro
# de uma vez. Mova $x$ ao longo de um tensor $v$ do mesmo formato: pela regra da cadeia, a
# inclinação de $t \mapsto f(x + t v)$ em $t = 0$ é $\sum_i \frac{\partial f}{\partial x_i}\, v_i$,
# o produto escalar do gradiente por $v$, e uma diferença central mede essa mesma inclinação,
# $\frac{f(x + h v) - f(x - h v)}{2h}$. Sorteie $v$: assim, um gradiente errado prevê uma
# inclinação errada, a não ser por muito azar.
#
# Compare as duas inclinações pelo *erro relativo*, $\frac{|a - b|}{\max(|a|, |b|)}$, e não pela
# diferença: uma diferença de $0{,}01$ é minúscula para uma inclinação de $1000$ e enorme para uma
# de $0{,}001$. Em float64 com $h = 10^{-5}$, um gradiente correto dá um erro relativo de cerca de
# $10^{-10}$ ou menos, e um errado, de $10^{-3}$ ou mais. Abaixo, o gradiente da fita para
# $f(x) = \sum_i x_i^2 \sin x_i$ passa na verificação, e um gradiente que esquece um termo da
# regra do produto não passa:

# %% [markdown] key="numeric-direction" lang="ru" src="8758b141"
# ### Один сдвиг на весь градиент
#
# Если источник — тензор, сдвигать по очереди каждый из его $n$ элементов — это $2n$ вычислений
# $f$. Один сдвиг вдоль *направления* проверяет весь градиент сразу. Сдвиньте $x$ вдоль тензора
# $v$ той же формы: по цепному правилу наклон функции $t \mapsto f(x + t v)$ в точке $t = 0$
# равен $\sum_i \frac{\partial f}{\partial x_i}\, v_i$, скалярному произведению градиента на $v$,
# а центральная разность измеряет тот же наклон: $\frac{f(x + h v) - f(x - h v)}{2h}$. Выберите
# $v$ случайно: тогда неверный градиент предскажет неверный наклон, если только направление не
# окажется крайне неудачным.
#
# Сравнивайте два наклона по *относительной ошибке* $\frac{|a - b|}{\max(|a|, |b|)}$, а не по
# разности: разность $0{,}01$ ничтожна при наклоне $1000$ и огромна при наклоне $0{,}001$. Во
# float64 при $h = 10^{-5}$ у верного градиента относительная ошибка порядка $10^{-10}$ или
# меньше, у неверного — $10^{-3}$ или больше. Ниже градиент функции $f(x) = \sum_i x_i^2 \sin x_i$,
# полученный лентой, проверку проходит, а градиент, в котором забыто одно слагаемое из правила
# дифференцирования произведения, — нет:

# %% key="numeric-direction-code"
def f(x):
    return tf.reduce_sum(x**2 * tf.sin(x))


x = tf.constant([1.5, -0.5, 2.0], dtype=tf.float64)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = f(x)
right = tape.gradient(y, x)
wrong = x**2 * tf.cos(x)

v = tf.constant(np.random.default_rng(0).standard_normal(3))
nudge = float((f(x + h * v) - f(x - h * v)) / (2 * h))
for which, grad in [(t("l01.check.right"), right), (t("l01.check.wrong"), wrong)]:
    predicted = float(tf.reduce_sum(grad * v))
    rel_error = abs(nudge - predicted) / max(abs(nudge), abs(predicted))
    print(t("l01.check.row", which=which, nudge=f"{nudge:.8f}", predicted=f"{predicted:.8f}",
            rel_error=f"{rel_error:.1e}"))

# %% [markdown] key="numeric-kink" lang="en"
# ### Kinks
#
# A central difference assumes that $f$ is smooth between $x - hv$ and $x + hv$. Where a function
# has a corner, a *kink* (the ReLU at 0, `tf.abs`, `tf.maximum`, a hinge loss at its margin), the
# slope jumps, and a nudge that straddles the kink measures a mix of the two sides: the check
# fails although the gradient is right. Below, the ReLU at $x = 3 \cdot 10^{-6}$, nearer to its
# kink than $h$: the tape's derivative is 1, the central difference says 0.65. At a random point
# an input is rarely that close to a kink; when a check fails, see whether one is, and move the
# point a little before you blame the gradient.

# %% [markdown] key="numeric-kink" lang="es" src="e40bdb86"
# ### Puntos angulosos
#
# Una diferencia central da por hecho que $f$ es suave entre $x - hv$ y $x + hv$. Donde una
# función hace una esquina, en un *punto anguloso* (la ReLU en 0, `tf.abs`, `tf.maximum`, una
# pérdida *hinge* en su margen), la pendiente da un salto, y una perturbación que cae a ambos lados
# del punto mide una mezcla de las dos pendientes: la comprobación falla aunque el gradiente sea
# correcto. Abajo, la ReLU en $x = 3 \cdot 10^{-6}$, más cerca de su punto anguloso que $h$: la
# cinta da la derivada 1 y la diferencia central, $0{,}65$. En un punto elegido al azar es raro
# que una entrada esté tan cerca de un punto anguloso; cuando una comprobación falle, mira si es
# el caso y mueve un poco el punto antes de culpar al gradiente.

# %% [markdown] key="numeric-kink" lang="pt" src="e40bdb86"
# ### Pontos angulosos
#
# Uma diferença central supõe que $f$ seja suave entre $x - hv$ e $x + hv$. Onde uma função faz
# uma quina, num *ponto anguloso* (a ReLU em 0, `tf.abs`, `tf.maximum`, uma perda *hinge* na
# margem), a inclinação dá um salto, e uma perturbação que cai dos dois lados do ponto mede uma
# mistura das duas inclinações: a verificação falha embora o gradiente esteja certo. Abaixo, a
# ReLU em $x = 3 \cdot 10^{-6}$, mais perto do seu ponto anguloso do que $h$: a fita dá a derivada
# 1, e a diferença central, $0{,}65$. Num ponto sorteado, é raro uma entrada ficar tão perto de um
# ponto anguloso; quando uma verificação falhar, veja se é o caso e mova um pouco o ponto antes de
# culpar o gradiente.

# %% [markdown] key="numeric-kink" lang="ru" src="e40bdb86"
# ### Изломы
#
# Центральная разность предполагает, что $f$ гладкая между $x - hv$ и $x + hv$. Там, где у
# функции угол — *излом* (ReLU в нуле, `tf.abs`, `tf.maximum`, кусочно-линейная функция потерь
# (*hinge loss*) на границе зазора), наклон меняется скачком, и сдвиг, захватывающий излом,
# измеряет смесь двух наклонов: проверка не пройдена, хотя градиент верен. Ниже — ReLU в точке
# $x = 3 \cdot 10^{-6}$, ближе к излому, чем $h$: лента даёт производную 1, центральная разность —
# $0{,}65$. В случайной точке вход редко оказывается так близко к излому; если проверка не
# пройдена, посмотрите, не тот ли это случай, и немного сдвиньте точку, прежде чем винить
# градиент.

# %% key="numeric-kink-code"
x = tf.constant(3e-6, dtype=tf.float64)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.nn.relu(x)
from_tape = float(tape.gradient(y, x))
nudge = float((tf.nn.relu(x + h) - tf.nn.relu(x - h)) / (2 * h))
print(t("l01.numeric.compare", tape=f"{from_tape:.2f}", nudge=f"{nudge:.2f}",
        diff=f"{abs(from_tape - nudge):.2f}"))

# %% [markdown] key="watch" lang="en"
# ## What the tape watches
#
# A tape does not record every operation: it records one only if one of its inputs is
# *watched*. Trainable `tf.Variable`s are watched automatically as soon as they are used inside
# the `with` block. A plain tensor made with `tf.constant` is not, so its gradient is `None`:

# %% [markdown] key="watch" lang="es" src="e421c99b"
# ## Qué observa la cinta
#
# Una cinta no graba todas las operaciones: graba una solo si alguna de sus entradas está
# *observada* (*watched*). Las `tf.Variable` entrenables se observan automáticamente en cuanto
# se usan dentro del bloque `with`. Un tensor corriente, creado con `tf.constant`, no; por eso
# su gradiente es `None`:

# %% [markdown] key="watch" lang="pt" src="e421c99b"
# ## O que a fita observa
#
# Uma fita não grava todas as operações: ela grava uma operação apenas se alguma das entradas
# estiver *observada* (*watched*). As `tf.Variable` treináveis são observadas automaticamente
# assim que são usadas dentro do bloco `with`. Um tensor comum, criado com `tf.constant`, não
# é; por isso o gradiente dele é `None`:

# %% [markdown] key="watch" lang="ru" src="e421c99b"
# ## За чем следит лента
#
# Лента записывает не все операции подряд, а только те, у которых хотя бы один вход
# *отслеживается* (*watched*). Обучаемые `tf.Variable` начинают отслеживаться автоматически,
# как только их используют внутри блока `with`. Обычный тензор, созданный через
# `tf.constant`, — нет, поэтому его градиент равен `None`:

# %% key="watch-code"
c = tf.constant(3.0)
with tf.GradientTape() as tape:
    y = c**2

print(tape.gradient(y, c))

# %% [markdown] key="watch-call" lang="en"
# `tape.watch(c)` asks the tape to watch a tensor: from then on, operations on `c` are recorded
# and its gradient exists. (Lesson 2 is all about controlling what a tape watches.)

# %% [markdown] key="watch-call" lang="es" src="21d5adc0"
# `tape.watch(c)` le pide a la cinta que observe un tensor: a partir de ese momento, las
# operaciones con `c` se graban y su gradiente existe. (La lección 2 trata a fondo cómo
# controlar lo que observa una cinta).

# %% [markdown] key="watch-call" lang="pt" src="21d5adc0"
# `tape.watch(c)` pede à fita que observe um tensor: a partir daí, as operações com `c` são
# gravadas e o gradiente existe. (A lição 2 trata em detalhe de como controlar o que a fita
# observa.)

# %% [markdown] key="watch-call" lang="ru" src="21d5adc0"
# `tape.watch(c)` просит ленту отслеживать тензор: с этого момента операции над `c`
# записываются, и градиент по нему существует. (Подробно о том, как управлять тем, что
# отслеживает лента, — в уроке 2.)

# %% key="watch-call-code"
with tf.GradientTape() as tape:
    tape.watch(c)
    y = c**2

print(tape.gradient(y, c).numpy())

# %% [markdown] key="chain-rule" lang="en"
# ## The chain rule, done for you
#
# The tape composes the derivatives of the operations it recorded. For $z = \sin(x^2)$ the
# chain rule gives $\frac{dz}{dx} = 2x\cos(x^2)$; the tape finds the same number without ever
# being told the formula:

# %% [markdown] key="chain-rule" lang="es" src="818702ef"
# ## La regla de la cadena, sin hacerla tú
#
# La cinta compone las derivadas de las operaciones que grabó. Para $z = \sin(x^2)$, la regla
# de la cadena da $\frac{dz}{dx} = 2x\cos(x^2)$; la cinta obtiene el mismo número sin que nadie
# le diga la fórmula:

# %% [markdown] key="chain-rule" lang="pt" src="818702ef"
# ## A regra da cadeia, sem você fazer as contas
#
# A fita compõe as derivadas das operações que gravou. Para $z = \sin(x^2)$, a regra da cadeia
# dá $\frac{dz}{dx} = 2x\cos(x^2)$; a fita chega ao mesmo número sem que ninguém lhe diga a
# fórmula:

# %% [markdown] key="chain-rule" lang="ru" src="818702ef"
# ## Цепное правило без ручной работы
#
# Лента сама составляет производные записанных операций. Для $z = \sin(x^2)$ цепное правило
# даёт $\frac{dz}{dx} = 2x\cos(x^2)$; лента получает то же число, хотя формулу ей никто не
# сообщал:

# %% key="chain-rule-code"
x = tf.Variable(1.5)
with tf.GradientTape() as tape:
    z = tf.math.sin(x**2)

print(tape.gradient(z, x).numpy())
print(2 * 1.5 * np.cos(1.5**2))

# %% [markdown] key="tensors" lang="en"
# ## Gradients with respect to tensors
#
# Nothing changes when the sources are tensors. Here a weight matrix `w` of shape (3, 2) and a
# bias `b` of shape (2,) map an input `x` of shape (1, 3) to an output `y` of shape (1, 2), and
# the loss is the mean of the squared outputs. The tape is persistent because we will ask it
# several questions:

# %% [markdown] key="tensors" lang="es" src="ec9f54f5"
# ## Gradientes respecto de tensores
#
# Nada cambia cuando las fuentes son tensores. Aquí una matriz de pesos `w` de forma (3, 2) y
# un sesgo `b` de forma (2,) transforman una entrada `x` de forma (1, 3) en una salida `y` de
# forma (1, 2), y la pérdida es la media de los cuadrados de las salidas. La cinta es
# persistente porque le haremos varias preguntas:

# %% [markdown] key="tensors" lang="pt" src="ec9f54f5"
# ## Gradientes em relação a tensores
#
# Nada muda quando as fontes são tensores. Aqui uma matriz de pesos `w` de formato (3, 2) e um
# viés `b` de formato (2,) transformam uma entrada `x` de formato (1, 3) em uma saída `y` de
# formato (1, 2), e a perda é a média dos quadrados das saídas. A fita é persistente porque
# vamos fazer várias perguntas a ela:

# %% [markdown] key="tensors" lang="ru" src="ec9f54f5"
# ## Градиенты по тензорам
#
# Если источники — тензоры, ничего не меняется. Здесь матрица весов `w` формы (3, 2) и
# смещение `b` формы (2,) переводят вход `x` формы (1, 3) в выход `y` формы (1, 2), а функция
# потерь — среднее квадратов выходов. Лента персистентная, потому что мы зададим ей несколько
# вопросов:

# %% key="tensors-code"
w = tf.Variable([[0.5, -1.0], [1.0, 0.25], [-0.5, 0.75]], name="w")
b = tf.Variable([0.1, -0.2], name="b")
x = tf.constant([[1.0, 2.0, 3.0]])

with tf.GradientTape(persistent=True) as tape:
    y = x @ w + b
    loss = tf.reduce_mean(y**2)

# %% [markdown] key="list-sources" lang="en"
# Pass the sources as a list and you get a list of gradients, in the same order:

# %% [markdown] key="list-sources" lang="es" src="bcd20a2f"
# Si pasas las fuentes en una lista, recibes una lista de gradientes en el mismo orden:

# %% [markdown] key="list-sources" lang="pt" src="bcd20a2f"
# Se você passar as fontes em uma lista, recebe uma lista de gradientes na mesma ordem:

# %% [markdown] key="list-sources" lang="ru" src="bcd20a2f"
# Если передать источники списком, получится список градиентов в том же порядке:

# %% key="list-sources-code"
[dl_dw, dl_db] = tape.gradient(loss, [w, b])
dl_db

# %% [markdown] key="shapes" lang="en"
# The gradient with respect to a source has the shape of that source: one partial derivative
# per entry.

# %% [markdown] key="shapes" lang="es" src="eb0954df"
# El gradiente respecto de una fuente tiene la forma de esa fuente: una derivada parcial por
# cada elemento.

# %% [markdown] key="shapes" lang="pt" src="eb0954df"
# O gradiente em relação a uma fonte tem o formato dessa fonte: uma derivada parcial para cada
# elemento.

# %% [markdown] key="shapes" lang="ru" src="eb0954df"
# Градиент по источнику имеет ту же форму, что и сам источник: по одной частной производной на
# каждый элемент.

# %% key="shapes-code"
print("w:", w.shape, "  dl/dw:", dl_dw.shape)
print("b:", b.shape, "  dl/db:", dl_db.shape)

# %% [markdown] key="by-hand" lang="en"
# Let us check these numbers by hand. With $y = xw + b$ and $L = \frac{1}{2}(y_1^2 + y_2^2)$ we
# have $\frac{\partial L}{\partial y} = y$, hence $\frac{\partial L}{\partial b} = y$ and
# $\frac{\partial L}{\partial w} = x^\top y$:

# %% [markdown] key="by-hand" lang="es" src="ef6e3e01"
# Comprobemos estos números a mano. Con $y = xw + b$ y $L = \frac{1}{2}(y_1^2 + y_2^2)$
# tenemos $\frac{\partial L}{\partial y} = y$; por lo tanto, $\frac{\partial L}{\partial b} = y$
# y $\frac{\partial L}{\partial w} = x^\top y$:

# %% [markdown] key="by-hand" lang="pt" src="ef6e3e01"
# Vamos conferir esses números à mão. Com $y = xw + b$ e $L = \frac{1}{2}(y_1^2 + y_2^2)$,
# temos $\frac{\partial L}{\partial y} = y$; portanto, $\frac{\partial L}{\partial b} = y$ e
# $\frac{\partial L}{\partial w} = x^\top y$:

# %% [markdown] key="by-hand" lang="ru" src="ef6e3e01"
# Проверим эти числа вручную. При $y = xw + b$ и $L = \frac{1}{2}(y_1^2 + y_2^2)$ имеем
# $\frac{\partial L}{\partial y} = y$, а значит, $\frac{\partial L}{\partial b} = y$ и
# $\frac{\partial L}{\partial w} = x^\top y$:

# %% key="by-hand-code"
y_np = y.numpy()
print(np.allclose(dl_db.numpy(), y_np[0]))
print(np.allclose(dl_dw.numpy(), x.numpy().T @ y_np))

# %% [markdown] key="dict-sources" lang="en"
# Dictionaries work too, and so does any nesting of lists and dictionaries: the tape returns
# the gradients in the same structure you passed in. This is handy when parameters are kept by
# name:

# %% [markdown] key="dict-sources" lang="es" src="9b8bdddf"
# También sirven los diccionarios, y cualquier anidamiento de listas y diccionarios: la cinta
# devuelve los gradientes con la misma estructura que le pasaste. Resulta práctico cuando los
# parámetros se guardan por nombre:

# %% [markdown] key="dict-sources" lang="pt" src="9b8bdddf"
# Dicionários também funcionam, assim como qualquer aninhamento de listas e dicionários: a fita
# devolve os gradientes com a mesma estrutura que você passou. Isso é prático quando os
# parâmetros são guardados por nome:

# %% [markdown] key="dict-sources" lang="ru" src="9b8bdddf"
# Подойдут и словари, и любые вложенные друг в друга списки и словари: лента вернёт градиенты
# в той же структуре, в которой вы передали источники. Это удобно, когда параметры хранятся по
# именам:

# %% key="dict-sources-code"
grads = tape.gradient(loss, {"weights": w, "bias": b})
grads["bias"]

# %% [markdown] key="nested" lang="en"
# A nested structure comes back with the same nesting:

# %% [markdown] key="nested" lang="es" src="ca7acc79"
# Una estructura anidada vuelve con el mismo anidamiento:

# %% [markdown] key="nested" lang="pt" src="ca7acc79"
# Uma estrutura aninhada volta com o mesmo aninhamento:

# %% [markdown] key="nested" lang="ru" src="ca7acc79"
# Вложенная структура возвращается с той же вложенностью:

# %% key="nested-code"
nested = tape.gradient(loss, {"layer": [w, b], "bias_again": b})
print(nested["layer"][1].numpy())
print(nested["bias_again"].numpy())
del tape

# %% [markdown] key="model" lang="en"
# ## Gradients with respect to a model
#
# Models collect their variables for you. A Keras layer such as `tf.keras.layers.Dense` creates
# its kernel and bias the first time it is called and lists them in `trainable_variables`;
# passing that list as the sources gives one gradient per variable: <!-- claim: l01.dense-builds -->

# %% [markdown] key="model" lang="es" src="c3c23093"
# ## Gradientes respecto de un modelo
#
# Los modelos reúnen sus variables por ti. Una capa de Keras como `tf.keras.layers.Dense` crea
# su matriz de pesos (*kernel*) y su sesgo la primera vez que se la llama y los enumera en
# `trainable_variables`; si pasas esa lista como fuentes, obtienes un gradiente por variable: <!-- claim: l01.dense-builds -->

# %% [markdown] key="model" lang="pt" src="c3c23093"
# ## Gradientes em relação a um modelo
#
# Os modelos reúnem as variáveis por você. Uma camada do Keras como `tf.keras.layers.Dense`
# cria sua matriz de pesos (*kernel*) e seu viés na primeira vez que é chamada e os lista em
# `trainable_variables`; passando essa lista como fontes, você obtém um gradiente por variável: <!-- claim: l01.dense-builds -->

# %% [markdown] key="model" lang="ru" src="c3c23093"
# ## Градиенты по переменным модели
#
# Модели сами собирают свои переменные. Слой Keras, например `tf.keras.layers.Dense`, при
# первом вызове создаёт матрицу весов (*kernel*) и вектор смещений, а затем перечисляет их в
# `trainable_variables`; передав этот список как источники, вы получите по градиенту на каждую
# переменную: <!-- claim: l01.dense-builds -->

# %% key="model-code" tf="random"
layer = tf.keras.layers.Dense(2, activation="tanh")
x = tf.constant([[1.0, 2.0, 3.0]])

with tf.GradientTape() as tape:
    y = layer(x)
    loss = tf.reduce_mean(y**2)

grads = tape.gradient(loss, layer.trainable_variables)

# %% [markdown] key="model-names" lang="en"
# The gradients come back in the order of `trainable_variables`, so `zip` pairs each variable
# with its gradient:

# %% [markdown] key="model-names" lang="es" src="7f55cf80"
# Los gradientes llegan en el orden de `trainable_variables`, así que `zip` empareja cada
# variable con su gradiente:

# %% [markdown] key="model-names" lang="pt" src="7f55cf80"
# Os gradientes chegam na ordem de `trainable_variables`, então `zip` junta cada variável com o
# seu gradiente:

# %% [markdown] key="model-names" lang="ru" src="7f55cf80"
# Градиенты возвращаются в порядке `trainable_variables`, поэтому `zip` ставит каждой
# переменной в пару её градиент:

# %% key="model-names-code" tf="random"
for var, g in zip(layer.trainable_variables, grads):
    print(t("l01.shapes", name=var.name, shape=tuple(var.shape), gshape=tuple(g.shape)))

# %% [markdown] key="broadcast" lang="en"
# ## A shape trap: broadcasting
#
# Arithmetic between tensors of different shapes *broadcasts* them: the smaller shape is
# expanded to the larger one, as NumPy does, so a bias of shape (m,) is added to every row of a
# (k, m) batch. <!-- claim: l01.broadcasting --> That is usually what you want, but it also happens when you did not mean it. A
# `Dense` layer with one unit returns its k predictions with shape (k, 1), and labels are often
# stored with shape (k,). Subtract them and broadcasting builds a (k, k) matrix: every prediction
# minus every label. Its mean is one number, the tape differentiates it without a complaint, and
# the gradients even have the right shapes; only their values are wrong:

# %% [markdown] key="broadcast" lang="es" src="b9fc26d4"
# ## Una trampa con las formas
#
# Al operar con tensores de formas distintas se aplica el *broadcasting* (la expansión automática
# de una forma a otra mayor, como en NumPy): así, un sesgo de forma (m,) se suma a cada fila de un
# lote de forma (k, m). <!-- claim: l01.broadcasting --> Normalmente es lo que quieres, pero también ocurre cuando no lo querías.
# Una capa `Dense` de una unidad devuelve sus k predicciones con forma (k, 1), y las etiquetas
# suelen guardarse con forma (k,). Si las restas, el *broadcasting* construye una matriz (k, k):
# cada predicción menos cada etiqueta. Su media es un solo número, la cinta la deriva sin protestar
# y los gradientes tienen incluso la forma correcta; solo sus valores están mal:

# %% [markdown] key="broadcast" lang="pt" src="b9fc26d4"
# ## Uma armadilha com os formatos
#
# Operar com tensores de formatos diferentes aplica o *broadcasting* (a expansão automática de um
# formato para outro maior, como no NumPy): assim, um viés de formato (m,) é somado a cada linha
# de um lote de formato (k, m). <!-- claim: l01.broadcasting --> Em geral é o que você quer, mas isso também acontece quando você
# não queria. Uma camada `Dense` com uma unidade devolve as suas k previsões com formato (k, 1), e
# os rótulos costumam ser guardados com formato (k,). Subtraia um do outro e o *broadcasting*
# monta uma matriz (k, k): cada previsão menos cada rótulo. A média dela é um número só, a fita a
# deriva sem reclamar e os gradientes têm até o formato certo; só os valores estão errados:

# %% [markdown] key="broadcast" lang="ru" src="b9fc26d4"
# ## Ловушка с формами
#
# Арифметика над тензорами разных форм выполняет *транслирование* (*broadcasting*: меньшая форма
# автоматически расширяется до большей, как в NumPy), поэтому смещение формы (m,) прибавляется к
# каждой строке батча формы (k, m). <!-- claim: l01.broadcasting --> Обычно это и нужно, но то же самое происходит и тогда, когда
# вы этого не хотели. Слой `Dense` с одним нейроном возвращает свои k предсказаний в форме
# (k, 1), а метки часто хранят в форме (k,). Вычтите одно из другого — и транслирование построит
# матрицу (k, k): каждое предсказание минус каждая метка. Её среднее — одно число, лента
# дифференцирует его без возражений, и у градиентов даже правильные формы; неверны только их
# значения:

# %% key="broadcast-code"
x = tf.constant([[1.0, 2.0], [0.5, -1.0], [-1.0, 0.0]])
y = tf.constant([1.0, 0.0, 2.0])
layer = tf.keras.layers.Dense(1)
layer(x)
layer.kernel.assign([[0.5], [-1.0]])

with tf.GradientTape(persistent=True) as tape:
    pred = layer(x)
    trap = tf.reduce_mean((pred - y) ** 2)
    fixed = tf.reduce_mean((tf.reshape(pred, [-1]) - y) ** 2)

print("pred:", pred.shape, "  y:", y.shape, "  pred - y:", (pred - y).shape)
print("trap:", trap.numpy(), "  fixed:", fixed.numpy())
print("d(trap)/d(kernel): ", tape.gradient(trap, layer.kernel).numpy().ravel())
print("d(fixed)/d(kernel):", tape.gradient(fixed, layer.kernel).numpy().ravel())
del tape

# %% [markdown] key="broadcast-fix" lang="en"
# Give both sides the same shape before subtracting: `tf.reshape(pred, [-1])` turns the
# predictions into shape (k,) (so does `tf.squeeze(pred, axis=1)`), or `tf.reshape(y, [-1, 1])`
# turns the labels into (k, 1). No error warns you, so make it a habit: the first time you write a
# loss, print the shapes of its operands. Exercise 4 sets this trap for you.

# %% [markdown] key="broadcast-fix" lang="es" src="13b10c11"
# Da a los dos lados la misma forma antes de restar: `tf.reshape(pred, [-1])` lleva las
# predicciones a la forma (k,) (lo mismo hace `tf.squeeze(pred, axis=1)`), o
# `tf.reshape(y, [-1, 1])` lleva las etiquetas a (k, 1). Ningún error te avisa, así que
# conviértelo en un hábito: la primera vez que escribas una pérdida, imprime las formas de sus
# operandos. El ejercicio 4 te tiende esta trampa.

# %% [markdown] key="broadcast-fix" lang="pt" src="13b10c11"
# Dê aos dois lados o mesmo formato antes de subtrair: `tf.reshape(pred, [-1])` deixa as
# previsões com formato (k,) (o mesmo faz `tf.squeeze(pred, axis=1)`), ou `tf.reshape(y, [-1, 1])`
# deixa os rótulos com formato (k, 1). Nenhum erro avisa você, então crie o hábito: na primeira vez
# que escrever uma perda, imprima os formatos dos operandos. O exercício 4 arma essa armadilha para
# você.

# %% [markdown] key="broadcast-fix" lang="ru" src="13b10c11"
# Приведите обе стороны к одной форме до вычитания: `tf.reshape(pred, [-1])` даёт
# предсказаниям форму (k,) (то же делает `tf.squeeze(pred, axis=1)`), а `tf.reshape(y, [-1, 1])`
# даёт меткам форму (k, 1). Никакой ошибки не будет, поэтому возьмите за правило: впервые записав
# функцию потерь, напечатайте формы её операндов. В упражнении 4 вас ждёт именно эта ловушка.

# %% [markdown] key="curve" lang="en"
# ## One backward pass, a whole curve
#
# When the target is not a scalar, the tape differentiates the *sum* of its elements. For an
# element-wise function such as the sigmoid $\sigma$, each output depends only on its own
# input, so the gradient of the sum holds the derivative at every point: a single backward
# pass draws the whole curve $\sigma'(x)$.

# %% [markdown] key="curve" lang="es" src="f7ea85c6"
# ## Una sola pasada hacia atrás, una curva entera
#
# Cuando el objetivo no es un escalar, la cinta deriva la *suma* de sus elementos. En una
# función elemento a elemento como la sigmoide $\sigma$, cada salida depende solo de su propia
# entrada, así que el gradiente de la suma contiene la derivada en cada punto: una sola pasada
# hacia atrás dibuja toda la curva $\sigma'(x)$.

# %% [markdown] key="curve" lang="pt" src="f7ea85c6"
# ## Uma passagem para trás, uma curva inteira
#
# Quando o alvo não é um escalar, a fita deriva a *soma* dos seus elementos. Numa função
# aplicada elemento a elemento, como a sigmoide $\sigma$, cada saída depende só da sua própria
# entrada; assim, o gradiente da soma traz a derivada em cada ponto: uma única passagem para
# trás desenha a curva inteira de $\sigma'(x)$.

# %% [markdown] key="curve" lang="ru" src="f7ea85c6"
# ## Один обратный проход — целая кривая
#
# Если цель — не скаляр, лента дифференцирует *сумму* её элементов. У поэлементной функции,
# например сигмоиды $\sigma$, каждый выход зависит только от своего входа, поэтому градиент
# суммы содержит производную в каждой точке: один обратный проход рисует всю кривую
# $\sigma'(x)$.

# %% key="curve-code"
x = tf.linspace(-6.0, 6.0, 121)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.nn.sigmoid(x)
dy_dx = tape.gradient(y, x)

plt.figure(figsize=(6.4, 3.6))
plt.plot(x.numpy(), y.numpy(), label="σ(x)")
plt.plot(x.numpy(), dy_dx.numpy(), "--", label="σ′(x)")
plt.xlabel("x")
plt.title(t("l01.sigmoid.title"))
plt.legend()
describe(t("l01.sigmoid.alt"))
plt.show()

# %% [markdown] key="curve-check" lang="en"
# The curve matches the textbook formula $\sigma'(x) = \sigma(x)\,(1 - \sigma(x))$ at every point:

# %% [markdown] key="curve-check" lang="es" src="81cae01e"
# La curva coincide en cada punto con la fórmula de los libros,
# $\sigma'(x) = \sigma(x)\,(1 - \sigma(x))$:

# %% [markdown] key="curve-check" lang="pt" src="81cae01e"
# A curva coincide em todos os pontos com a fórmula dos livros,
# $\sigma'(x) = \sigma(x)\,(1 - \sigma(x))$:

# %% [markdown] key="curve-check" lang="ru" src="81cae01e"
# Кривая в каждой точке совпадает с формулой из учебника
# $\sigma'(x) = \sigma(x)\,(1 - \sigma(x))$:

# %% key="curve-check-code"
s = y.numpy()
np.allclose(dy_dx.numpy(), s * (1 - s))

# %% [markdown] key="plot-helper" lang="en"
# `plot_function_and_derivative` does the same for any element-wise function built from
# minitape operations. <!-- claim: l01.plot-helper --> Change the function and run the cell again:

# %% [markdown] key="plot-helper" lang="es" src="c212e04c"
# `plot_function_and_derivative` hace lo mismo con cualquier función elemento a elemento
# construida con operaciones de minitape. <!-- claim: l01.plot-helper --> Cambia la función y vuelve a ejecutar la celda:

# %% [markdown] key="plot-helper" lang="pt" src="c212e04c"
# `plot_function_and_derivative` faz o mesmo para qualquer função elemento a elemento
# construída com operações do minitape. <!-- claim: l01.plot-helper --> Troque a função e execute a célula de novo:

# %% [markdown] key="plot-helper" lang="ru" src="c212e04c"
# `plot_function_and_derivative` делает то же самое для любой поэлементной функции,
# составленной из операций minitape. <!-- claim: l01.plot-helper --> Поменяйте функцию и запустите ячейку ещё раз:

# %% key="plot-helper-code" tf="course"
plot_function_and_derivative(lambda x: x * tf.math.sin(x), x_range=(-6, 6));

# %% [markdown] key="tangent" lang="en"
# ## Explore: the slope of the tangent
#
# The derivative at a point is the slope of the tangent line there. Move the slider: at every
# position a fresh tape computes $f'(x)$ for $f(x) = x^3 - 3x$, and the tangent through the marked
# point is drawn with that slope. Where is the slope zero? Where is it steepest?

# %% [markdown] key="tangent" lang="es" src="113d37a2"
# ## Explora: la pendiente de la tangente
#
# La derivada en un punto es la pendiente de la recta tangente en ese punto. Mueve el
# deslizador: en cada posición, una cinta nueva calcula $f'(x)$ para $f(x) = x^3 - 3x$, y la
# tangente por el punto marcado se dibuja con esa pendiente. ¿Dónde se anula la pendiente? ¿Dónde es mayor?

# %% [markdown] key="tangent" lang="pt" src="113d37a2"
# ## Explore: a inclinação da tangente
#
# A derivada em um ponto é a inclinação da reta tangente nesse ponto. Mova o controle
# deslizante: em cada posição, uma fita nova calcula $f'(x)$ para $f(x) = x^3 - 3x$, e a tangente
# pelo ponto destacado é desenhada com essa inclinação. Onde a inclinação é zero? Onde ela é maior?

# %% [markdown] key="tangent" lang="ru" src="113d37a2"
# ## Исследуйте: наклон касательной
#
# Производная в точке — это наклон касательной в этой точке. Двигайте ползунок: в каждом
# положении новая лента вычисляет $f'(x)$ для $f(x) = x^3 - 3x$, и касательная через отмеченную
# точку рисуется с этим наклоном. Где наклон равен нулю? Где он наибольший?

# %% key="tangent-code" tf="course"
tangent_explorer(lambda x: x**3 - 3 * x, x_range=(-2.5, 2.5), x0=1.5)

# %% [markdown] key="exercises" lang="en"
# ## Exercises
#
# Each exercise asks you to complete a function: replace `raise NotImplementedError()` with
# your code and run the cell, then run the cell below it. `check(...)` tries your function at
# once on a few inputs and, if something is off, shows what you returned next to what was
# expected. When your work is graded, hidden checks also call your function at random points,
# so a fixed number will not pass. The points come from the values your function returns.
# Exercises 1 to 4 ask you to compute them with a tape, because the tape is what you are here to
# learn: a formula derived by hand with the right values earns the points too, but your teacher
# sees a note that no tape computed it. Your answer counts by its value, whatever holds it: a
# tensor, a NumPy array, a Python number or a list, integers or floats. <!-- claim: course.number-rule -->
# It is compared within float32's tolerance (a relative error up to $2 \cdot 10^{-4}$), so
# computing in float32 or in float64 is equally right, except in exercise 5, whose central
# difference needs float64 (the section on nudges says why). <!-- claim: course.number-rule -->

# %% [markdown] key="exercises" lang="es" src="d5e25905"
# ## Ejercicios
#
# En cada ejercicio tienes que completar una función: sustituye `raise NotImplementedError()`
# por tu código y ejecuta la celda; después, ejecuta la celda de abajo. `check(...)` prueba tu
# función en el acto con algunas entradas y, si algo no cuadra, te muestra lo que devolviste
# junto a lo esperado. Al calificar tu trabajo, unas comprobaciones ocultas llaman además a tu
# función en puntos aleatorios, así que un número fijo no pasará. Los puntos salen de los valores
# que devuelve tu función. Los ejercicios 1 a 4 te piden calcularlos con una cinta, porque la
# cinta es lo que vienes a aprender: una fórmula derivada a mano con los valores correctos también
# obtiene los puntos, pero tu profesor o profesora verá una nota de que no los calculó una cinta.
# Tu respuesta cuenta por su valor, sea cual sea el contenedor: un tensor, un array de NumPy, un
# número de Python o una lista, con enteros o con decimales. <!-- claim: course.number-rule --> Se
# compara con la tolerancia de float32 (un error relativo de hasta $2 \cdot 10^{-4}$), así que
# calcular en float32 o en float64 vale igual, salvo en el ejercicio 5, cuya diferencia central
# necesita float64 (la sección sobre las pequeñas perturbaciones explica por qué). <!-- claim: course.number-rule -->

# %% [markdown] key="exercises" lang="pt" src="d5e25905"
# ## Exercícios
#
# Em cada exercício você completa uma função: substitua `raise NotImplementedError()` pelo seu
# código e execute a célula; depois, execute a célula logo abaixo. `check(...)` testa a sua
# função na hora com algumas entradas e, se algo estiver errado, mostra o que você devolveu ao
# lado do esperado. Na correção, verificações ocultas também chamam a sua função em pontos
# aleatórios; por isso um número fixo não passa. Os pontos vêm dos valores que a sua função
# devolve. Os exercícios 1 a 4 pedem que você os calcule com uma fita, porque a fita é o que você
# veio aprender: uma fórmula derivada à mão com os valores certos também ganha os pontos, mas o
# seu professor ou professora vê uma nota de que nenhuma fita os calculou. A sua resposta vale
# pelo valor, seja qual for o recipiente: um tensor, um array do NumPy, um número do Python ou uma
# lista, com inteiros ou com decimais. <!-- claim: course.number-rule --> Ela é comparada com a
# tolerância do float32 (um erro relativo de até $2 \cdot 10^{-4}$), então calcular em float32 ou
# em float64 dá no mesmo, exceto no exercício 5, cuja diferença central precisa de float64 (a
# seção sobre as pequenas perturbações explica por quê). <!-- claim: course.number-rule -->

# %% [markdown] key="exercises" lang="ru" src="d5e25905"
# ## Упражнения
#
# В каждом упражнении нужно дописать функцию: замените `raise NotImplementedError()` своим
# кодом и выполните ячейку, а затем ячейку под ней. `check(...)` сразу проверяет вашу функцию
# на нескольких входах и, если что-то не так, показывает рядом то, что вы вернули, и то, что
# ожидалось. При оценивании скрытые проверки вызывают вашу функцию ещё и в случайных точках,
# поэтому заранее подобранное число не пройдёт. Баллы ставятся за значения, которые возвращает
# ваша функция. Упражнения 1–4 просят вычислять их с помощью ленты, потому что именно ленту вы
# здесь изучаете: формула, выведенная вручную, с верными значениями тоже получит баллы, но
# преподаватель увидит пометку, что их вычислила не лента. Ответ засчитывается по значению, в чём
# бы он ни был: тензор, массив NumPy, число Python или список, целые числа или дробные. <!-- claim: course.number-rule -->
# Он сравнивается с допуском float32 (относительная погрешность до $2 \cdot 10^{-4}$), поэтому
# вычислять во float32 или во float64 одинаково правильно — кроме упражнения 5: его центральной
# разности нужен float64 (почему — сказано в разделе о проверке сдвигом). <!-- claim: course.number-rule -->

# %% [markdown] key="ex1" lang="en"
# ### Exercise 1 · A derivative at a point (1 point)
#
# Write `derivative_at(x0)`, which returns $\frac{dy}{dx}$ for $y = x^3 - 2x$ at $x = x_0$
# (a Python float), computed with a `tf.GradientTape`. Return what `tape.gradient` returns.
# For example, at $x_0 = 2$ the answer is $3 \cdot 2^2 - 2 = 10$.

# %% [markdown] key="ex1" lang="es" src="1c101759"
# ### Ejercicio 1 · Una derivada en un punto (1 punto)
#
# Escribe `derivative_at(x0)`, que devuelve $\frac{dy}{dx}$ para $y = x^3 - 2x$ en $x = x_0$,
# donde `x0` es un `float` de Python, calculada con una `tf.GradientTape`. Devuelve lo que devuelve
# `tape.gradient`. Por ejemplo, en $x_0 = 2$ la respuesta es $3 \cdot 2^2 - 2 = 10$.

# %% [markdown] key="ex1" lang="pt" src="1c101759"
# ### Exercício 1 · Uma derivada em um ponto (1 ponto)
#
# Escreva `derivative_at(x0)`, que devolve $\frac{dy}{dx}$ para $y = x^3 - 2x$ em $x = x_0$,
# em que `x0` é um `float` do Python, calculada com uma `tf.GradientTape`. Devolva o que `tape.gradient`
# devolve. Por exemplo, em $x_0 = 2$ a resposta é $3 \cdot 2^2 - 2 = 10$.

# %% [markdown] key="ex1" lang="ru" src="1c101759"
# ### Упражнение 1 · Производная в точке (1 балл)
#
# Напишите функцию `derivative_at(x0)`, которая принимает число `x0` (тип `float`) и возвращает
# производную $\frac{dy}{dx}$ функции $y = x^3 - 2x$ в точке $x_0$, вычисленную с помощью
# `tf.GradientTape`. Верните то,
# что возвращает `tape.gradient`. Например, при $x_0 = 2$ ответ равен $3 \cdot 2^2 - 2 = 10$.

# %% nbgrader="solution" grade_id="l01_ex1_solution"
def derivative_at(x0):
    ### BEGIN SOLUTION
    x = tf.Variable(x0)
    with tf.GradientTape() as tape:
        y = x**3 - 2 * x
    return tape.gradient(y, x)
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l01_ex1" points=1
from grader import check
check("l01_ex1")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l01_ex1")
### END HIDDEN TESTS

# %% [markdown] key="ex2" lang="en"
# ### Exercise 2 · A loss and tensor sources (2 points)
#
# Write `mse_gradients(w, b, x, y_true)`. The arguments `w` (shape (n, m)) and `b` (shape
# (m,)) are `tf.Variable`s; `x` (shape (k, n)) and `y_true` (shape (k, m)) are tensors.
# Inside a tape, compute the mean squared error
#
# $$L = \operatorname{mean}\big((x w + b - y_{\text{true}})^2\big)$$
#
# and return the list `[dL/dw, dL/db]`.

# %% [markdown] key="ex2" lang="es" src="cb1c36d4"
# ### Ejercicio 2 · Una pérdida y fuentes tensoriales (2 puntos)
#
# Escribe `mse_gradients(w, b, x, y_true)`. Los argumentos `w` (forma (n, m)) y `b` (forma
# (m,)) son `tf.Variable`; `x` (forma (k, n)) e `y_true` (forma (k, m)) son tensores. Dentro
# de una cinta, calcula el error cuadrático medio
#
# $$L = \operatorname{mean}\big((x w + b - y_{\text{true}})^2\big)$$
#
# y devuelve la lista `[dL/dw, dL/db]`.

# %% [markdown] key="ex2" lang="pt" src="cb1c36d4"
# ### Exercício 2 · Uma perda e fontes tensoriais (2 pontos)
#
# Escreva `mse_gradients(w, b, x, y_true)`. Os argumentos `w` (formato (n, m)) e `b` (formato
# (m,)) são `tf.Variable`; `x` (formato (k, n)) e `y_true` (formato (k, m)) são tensores.
# Dentro de uma fita, calcule o erro quadrático médio
#
# $$L = \operatorname{mean}\big((x w + b - y_{\text{true}})^2\big)$$
#
# e devolva a lista `[dL/dw, dL/db]`.

# %% [markdown] key="ex2" lang="ru" src="cb1c36d4"
# ### Упражнение 2 · Функция потерь и тензорные источники (2 балла)
#
# Напишите функцию `mse_gradients(w, b, x, y_true)`. Аргументы `w` (форма (n, m)) и `b` (форма
# (m,)) — это `tf.Variable`, а `x` (форма (k, n)) и `y_true` (форма (k, m)) — тензоры. Внутри
# ленты вычислите среднеквадратичную ошибку
#
# $$L = \operatorname{mean}\big((x w + b - y_{\text{true}})^2\big)$$
#
# и верните список `[dL/dw, dL/db]`.

# %% nbgrader="solution" grade_id="l01_ex2_solution"
def mse_gradients(w, b, x, y_true):
    ### BEGIN SOLUTION
    with tf.GradientTape() as tape:
        y = x @ w + b
        loss = tf.reduce_mean((y - y_true) ** 2)
    return tape.gradient(loss, [w, b])
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l01_ex2" points=2
from grader import check
check("l01_ex2")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l01_ex2")
### END HIDDEN TESTS

# %% [markdown] key="ex3" lang="en"
# ### Exercise 3 · Parameters by name (2 points)
#
# Parameters often live in a dictionary. Write `gradients_by_name(params, x)`: `params` is a
# dictionary `{"a": ..., "c": ...}` of `tf.Variable`s with the same shape as the tensor `x`.
# The target is
#
# $$f = \sum_i \big(\sin(a_i x_i) + c_i^2\, x_i\big).$$
#
# Return a dictionary with the same keys holding the gradients of $f$ (hint: pass the
# dictionary itself as the sources).

# %% [markdown] key="ex3" lang="es" src="b8cda8a7"
# ### Ejercicio 3 · Parámetros con nombre (2 puntos)
#
# Es habitual guardar los parámetros en un diccionario. Escribe `gradients_by_name(params, x)`:
# `params` es un diccionario `{"a": ..., "c": ...}` de `tf.Variable` con la misma forma que el
# tensor `x`. El objetivo es
#
# $$f = \sum_i \big(\sin(a_i x_i) + c_i^2\, x_i\big).$$
#
# Devuelve un diccionario con las mismas claves que contenga los gradientes de $f$ (pista:
# pasa el propio diccionario como fuentes).

# %% [markdown] key="ex3" lang="pt" src="b8cda8a7"
# ### Exercício 3 · Parâmetros com nome (2 pontos)
#
# É comum guardar os parâmetros em um dicionário. Escreva `gradients_by_name(params, x)`:
# `params` é um dicionário `{"a": ..., "c": ...}` de `tf.Variable` com o mesmo formato do
# tensor `x`. O alvo é
#
# $$f = \sum_i \big(\sin(a_i x_i) + c_i^2\, x_i\big).$$
#
# Devolva um dicionário com as mesmas chaves contendo os gradientes de $f$ (dica: passe o
# próprio dicionário como fontes).

# %% [markdown] key="ex3" lang="ru" src="b8cda8a7"
# ### Упражнение 3 · Именованные параметры (2 балла)
#
# Параметры часто хранят в словаре. Напишите функцию `gradients_by_name(params, x)`:
# `params` — словарь `{"a": ..., "c": ...}` из `tf.Variable` той же формы, что и тензор `x`. Цель —
#
# $$f = \sum_i \big(\sin(a_i x_i) + c_i^2\, x_i\big).$$
#
# Верните словарь с теми же ключами, в котором лежат градиенты $f$ (подсказка: передайте
# в качестве источников сам словарь).

# %% nbgrader="solution" grade_id="l01_ex3_solution"
def gradients_by_name(params, x):
    ### BEGIN SOLUTION
    with tf.GradientTape() as tape:
        f = tf.reduce_sum(tf.math.sin(params["a"] * x) + params["c"] ** 2 * x)
    return tape.gradient(f, params)
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l01_ex3" points=2
from grader import check
check("l01_ex3")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l01_ex3")
### END HIDDEN TESTS

# %% [markdown] key="ex4" lang="en"
# ### Exercise 4 · A model's variables (2 points)
#
# Write `dense_gradients(layer, x, y)`: `layer` is a `tf.keras.layers.Dense` with one unit that
# has already been called once (so its variables exist), `x` is a batch of $k$ inputs and `y`
# holds their $k$ labels, a tensor of shape (k,). Return the gradients of the mean squared error
# of the layer's predictions,
#
# $$L = \frac{1}{k} \sum_{i=1}^{k} \big(\text{layer}(x)_i - y_i\big)^2,$$
#
# with respect to `layer.trainable_variables`, as a list in the same order. Mind the shapes (the
# section on broadcasting above).

# %% [markdown] key="ex4" lang="es" src="ec3c01e8"
# ### Ejercicio 4 · Las variables de un modelo (2 puntos)
#
# Escribe `dense_gradients(layer, x, y)`: `layer` es una `tf.keras.layers.Dense` de una unidad a
# la que ya se ha llamado una vez (así que sus variables existen), `x` es un lote de $k$ entradas
# e `y` contiene sus $k$ etiquetas, un tensor de forma (k,). Devuelve los gradientes del error
# cuadrático medio de las predicciones de la capa,
#
# $$L = \frac{1}{k} \sum_{i=1}^{k} \big(\text{layer}(x)_i - y_i\big)^2,$$
#
# respecto de `layer.trainable_variables`, como una lista en el mismo orden. Cuidado con las
# formas (la sección de arriba sobre el *broadcasting*).

# %% [markdown] key="ex4" lang="pt" src="ec3c01e8"
# ### Exercício 4 · As variáveis de um modelo (2 pontos)
#
# Escreva `dense_gradients(layer, x, y)`: `layer` é uma `tf.keras.layers.Dense` com uma unidade
# que já foi chamada uma vez (portanto suas variáveis já existem), `x` é um lote de $k$ entradas
# e `y` guarda os seus $k$ rótulos, um tensor de formato (k,). Devolva os gradientes do erro
# quadrático médio das previsões da camada,
#
# $$L = \frac{1}{k} \sum_{i=1}^{k} \big(\text{layer}(x)_i - y_i\big)^2,$$
#
# em relação a `layer.trainable_variables`, como uma lista na mesma ordem. Cuidado com os formatos
# (a seção acima sobre o *broadcasting*).

# %% [markdown] key="ex4" lang="ru" src="ec3c01e8"
# ### Упражнение 4 · Переменные модели (2 балла)
#
# Напишите функцию `dense_gradients(layer, x, y)`: `layer` — слой `tf.keras.layers.Dense` с
# одним нейроном, который уже вызывали один раз (значит, его переменные созданы), `x` — батч из
# $k$ входов, а `y` — их $k$ меток, тензор формы (k,). Верните градиенты среднеквадратичной
# ошибки предсказаний слоя
#
# $$L = \frac{1}{k} \sum_{i=1}^{k} \big(\text{layer}(x)_i - y_i\big)^2$$
#
# по `layer.trainable_variables` списком в том же порядке. Следите за формами (раздел о
# транслировании выше).

# %% nbgrader="solution" grade_id="l01_ex4_solution"
def dense_gradients(layer, x, y):
    ### BEGIN SOLUTION
    with tf.GradientTape() as tape:
        pred = tf.reshape(layer(x), [-1])
        loss = tf.reduce_mean((pred - y) ** 2)
    return tape.gradient(loss, layer.trainable_variables)
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l01_ex4" points=2
from grader import check
check("l01_ex4")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l01_ex4")
### END HIDDEN TESTS

# %% [markdown] key="ex5" lang="en"
# ### Exercise 5 · Checking a gradient with a nudge (2 points)
#
# Turn this lesson's check into a function you can reuse. Write `gradient_check(f, x, grad, v)`:
# `f` is a function that takes a tensor of the shape of `x` and returns a scalar, `x` a float64
# tensor, `grad` a tensor of the same shape that claims to be the gradient of `f` at `x`, and `v`
# a direction, a tensor of the same shape (use it as it is, without normalizing it). With
# $h = 10^{-5}$, return the list `[nudge, predicted, rel_error]`:
#
# - `nudge` $= \frac{f(x + h v) - f(x - h v)}{2h}$, the slope of $f$ along $v$ measured by a
#   central difference;
# - `predicted` $= \sum_i \text{grad}_i\, v_i$, the slope that `grad` predicts
#   (`tf.reduce_sum(grad * v)`);
# - `rel_error` $= \frac{|\text{nudge} - \text{predicted}|}{\max(|\text{nudge}|, |\text{predicted}|)}$.
#
# The checks give your function right gradients and wrong ones, of several functions (one with a
# ReLU, at points where no input of the ReLU is near its kink); a right one gives a `rel_error` of
# about $10^{-10}$, a wrong one $10^{-3}$ or more. Lessons 4 and 7 use this check on gradients
# written by hand.

# %% [markdown] key="ex5" lang="es" src="79df35ab"
# ### Ejercicio 5 · Comprobar un gradiente con una pequeña perturbación (2 puntos)
#
# Convierte la comprobación de esta lección en una función que puedas reutilizar. Escribe
# `gradient_check(f, x, grad, v)`: `f` es una función que recibe un tensor de la forma de `x` y
# devuelve un escalar, `x` es un tensor float64, `grad` un tensor de la misma forma que dice ser
# el gradiente de `f` en `x`, y `v` una dirección, un tensor de la misma forma (úsala tal cual,
# sin normalizarla). Con $h = 10^{-5}$, devuelve la lista `[nudge, predicted, rel_error]`:
#
# - `nudge` $= \frac{f(x + h v) - f(x - h v)}{2h}$, la pendiente de $f$ a lo largo de $v$ medida
#   con una diferencia central;
# - `predicted` $= \sum_i \text{grad}_i\, v_i$, la pendiente que predice `grad`
#   (`tf.reduce_sum(grad * v)`);
# - `rel_error` $= \frac{|\text{nudge} - \text{predicted}|}{\max(|\text{nudge}|, |\text{predicted}|)}$.
#
# Las comprobaciones dan a tu función gradientes correctos y erróneos de varias funciones (una con
# una ReLU, en puntos donde ninguna entrada de la ReLU está cerca de su punto anguloso); uno
# correcto da un `rel_error` de unos $10^{-10}$, y uno erróneo, de $10^{-3}$ o más. Las lecciones
# 4 y 7 usan esta comprobación con gradientes escritos a mano.

# %% [markdown] key="ex5" lang="pt" src="79df35ab"
# ### Exercício 5 · Conferir um gradiente com uma pequena perturbação (2 pontos)
#
# Transforme a verificação desta lição numa função que você possa reutilizar. Escreva
# `gradient_check(f, x, grad, v)`: `f` é uma função que recebe um tensor do formato de `x` e
# devolve um escalar, `x` é um tensor float64, `grad` um tensor do mesmo formato que se diz o
# gradiente de `f` em `x`, e `v` uma direção, um tensor do mesmo formato (use-o como está, sem
# normalizá-lo). Com $h = 10^{-5}$, devolva a lista `[nudge, predicted, rel_error]`:
#
# - `nudge` $= \frac{f(x + h v) - f(x - h v)}{2h}$, a inclinação de $f$ ao longo de $v$ medida por
#   uma diferença central;
# - `predicted` $= \sum_i \text{grad}_i\, v_i$, a inclinação que `grad` prevê
#   (`tf.reduce_sum(grad * v)`);
# - `rel_error` $= \frac{|\text{nudge} - \text{predicted}|}{\max(|\text{nudge}|, |\text{predicted}|)}$.
#
# As verificações dão à sua função gradientes certos e errados de várias funções (uma com uma
# ReLU, em pontos onde nenhuma entrada da ReLU fica perto do seu ponto anguloso); um certo dá um
# `rel_error` de cerca de $10^{-10}$, e um errado, de $10^{-3}$ ou mais. As lições 4 e 7 usam esta
# verificação em gradientes escritos à mão.

# %% [markdown] key="ex5" lang="ru" src="79df35ab"
# ### Упражнение 5 · Проверка градиента небольшим сдвигом (2 балла)
#
# Превратите проверку из этого урока в функцию, которой можно пользоваться снова. Напишите
# функцию `gradient_check(f, x, grad, v)`: `f` — функция, которая принимает тензор формы `x` и
# возвращает скаляр, `x` — тензор float64, `grad` — тензор той же формы, который выдаёт себя за
# градиент `f` в точке `x`, а `v` — направление, тензор той же формы (используйте его как есть, не
# нормируя). При $h = 10^{-5}$ верните список `[nudge, predicted, rel_error]`:
#
# - `nudge` $= \frac{f(x + h v) - f(x - h v)}{2h}$ — наклон $f$ вдоль $v$, измеренный центральной
#   разностью;
# - `predicted` $= \sum_i \text{grad}_i\, v_i$ — наклон, который предсказывает `grad`
#   (`tf.reduce_sum(grad * v)`);
# - `rel_error` $= \frac{|\text{nudge} - \text{predicted}|}{\max(|\text{nudge}|, |\text{predicted}|)}$.
#
# Проверки дают вашей функции верные и неверные градиенты нескольких функций (одна из них с ReLU,
# в точках, где ни один вход ReLU не лежит близко к излому); у верного `rel_error` порядка
# $10^{-10}$, у неверного — $10^{-3}$ или больше. В уроках 4 и 7 эта проверка применяется к
# градиентам, написанным вручную.

# %% nbgrader="solution" grade_id="l01_ex5_solution"
def gradient_check(f, x, grad, v):
    ### BEGIN SOLUTION
    h = 1e-5
    nudge = float((f(x + h * v) - f(x - h * v)) / (2 * h))
    predicted = float(tf.reduce_sum(grad * v))
    rel_error = abs(nudge - predicted) / max(abs(nudge), abs(predicted))
    return [nudge, predicted, rel_error]
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l01_ex5" points=2
from grader import check
check("l01_ex5")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l01_ex5")
### END HIDDEN TESTS

# %% [markdown] key="summary" lang="en"
# ## Summary
#
# - `with tf.GradientTape() as tape:` records the operations on watched tensors: trainable
#   variables automatically, any other tensor after `tape.watch`.
# - `tape.gradient(target, sources)` walks the record backwards. The sources may be one tensor
#   or any nesting of lists and dictionaries, and each gradient has the shape of its source.
# - A tape answers once, unless it was created with `persistent=True`.
# - A model's `trainable_variables` are the sources you will use most often.
# - To check a gradient, compare the slope it predicts along a random direction $v$,
#   `sum(grad * v)`, with a central difference along $v$, by their relative error: in float64 and
#   away from kinks, a right gradient gives about $10^{-10}$.
# - Broadcasting turns (k, 1) minus (k,) into a (k, k) matrix without an error: check the shapes of
#   a loss's operands.
#
# Next lesson: controlling exactly what a tape watches, gradients of intermediate results, and
# what a tape costs in memory.

# %% [markdown] key="summary" lang="es" src="e31f8c08"
# ## Resumen
#
# - `with tf.GradientTape() as tape:` graba las operaciones sobre tensores observados: las
#   variables entrenables, automáticamente; cualquier otro tensor, después de `tape.watch`.
# - `tape.gradient(target, sources)` recorre la grabación hacia atrás. Las fuentes pueden ser
#   un tensor o cualquier anidamiento de listas y diccionarios, y cada gradiente tiene la forma
#   de su fuente.
# - Una cinta responde una sola vez, salvo que se cree con `persistent=True`.
# - Las `trainable_variables` de un modelo son las fuentes que más usarás.
# - Para comprobar un gradiente, compara la pendiente que predice a lo largo de una dirección
#   aleatoria $v$, `sum(grad * v)`, con una diferencia central a lo largo de $v$, por su error
#   relativo: en float64 y lejos de los puntos angulosos, un gradiente correcto da unos
#   $10^{-10}$.
# - El *broadcasting* convierte (k, 1) menos (k,) en una matriz (k, k) sin ningún error: comprueba
#   las formas de los operandos de una pérdida.
#
# En la próxima lección: cómo controlar exactamente lo que observa una cinta, los gradientes
# de resultados intermedios y cuánta memoria cuesta una cinta.

# %% [markdown] key="summary" lang="pt" src="e31f8c08"
# ## Resumo
#
# - `with tf.GradientTape() as tape:` grava as operações sobre tensores observados: as
#   variáveis treináveis, automaticamente; qualquer outro tensor, depois de `tape.watch`.
# - `tape.gradient(target, sources)` percorre a gravação de trás para a frente. As fontes podem
#   ser um tensor ou qualquer aninhamento de listas e dicionários, e cada gradiente tem o
#   formato da sua fonte.
# - Uma fita responde uma vez só, a menos que tenha sido criada com `persistent=True`.
# - As `trainable_variables` de um modelo são as fontes que você mais vai usar.
# - Para conferir um gradiente, compare a inclinação que ele prevê ao longo de uma direção
#   sorteada $v$, `sum(grad * v)`, com uma diferença central ao longo de $v$, pelo erro relativo:
#   em float64 e longe dos pontos angulosos, um gradiente certo dá cerca de $10^{-10}$.
# - O *broadcasting* transforma (k, 1) menos (k,) numa matriz (k, k) sem nenhum erro: confira os
#   formatos dos operandos de uma perda.
#
# Na próxima lição: como controlar exatamente o que uma fita observa, os gradientes de
# resultados intermediários e quanta memória uma fita custa.

# %% [markdown] key="summary" lang="ru" src="e31f8c08"
# ## Итоги
#
# - `with tf.GradientTape() as tape:` записывает операции над отслеживаемыми тензорами:
#   обучаемые переменные отслеживаются автоматически, любой другой тензор — после
#   `tape.watch`.
# - `tape.gradient(target, sources)` проходит запись в обратном порядке. Источником может быть
#   один тензор или любая вложенная структура из списков и словарей, и каждый градиент имеет
#   форму своего источника.
# - Лента отвечает только один раз, если она не создана с `persistent=True`.
# - Чаще всего источниками будут `trainable_variables` модели.
# - Чтобы проверить градиент, сравните наклон, который он предсказывает вдоль случайного
#   направления $v$, `sum(grad * v)`, с центральной разностью вдоль $v$ по относительной ошибке:
#   во float64 и вдали от изломов у верного градиента она порядка $10^{-10}$.
# - Транслирование превращает (k, 1) минус (k,) в матрицу (k, k) без всякой ошибки: проверяйте
#   формы операндов функции потерь.
#
# В следующем уроке: как точно управлять тем, что отслеживает лента, как получать градиенты по
# промежуточным результатам и сколько памяти занимает лента.

# %% [markdown] key="reflect" lang="en" questions=true
# 1. A tape records the operations that actually ran, not a formula. What does that make possible
#    that differentiating a written-out formula would not, and what does it cost?
# 2. Why must the gradient with respect to a weight matrix have exactly the shape of that matrix?
#    Think about what `w - lr * dw` needs.
# 3. A tape answers only once unless it is persistent. If you were designing the library, would
#    you make the other choice the default? What would a beginner gain or lose, and what would a
#    large model?

# %% [markdown] key="reflect" lang="es" src="93498192"
# 1. Una cinta graba las operaciones que de verdad se ejecutaron, no una fórmula. ¿Qué puedes
#    hacer así que no podrías hacer derivando a mano una fórmula escrita, y qué precio tiene?
# 2. ¿Por qué el gradiente respecto de una matriz de pesos tiene que tener exactamente la forma de
#    esa matriz? Piensa en lo que necesita `w - lr * dw`.
# 3. Una cinta responde una sola vez, salvo que sea persistente. Si diseñaras la biblioteca,
#    ¿harías que la opción por defecto fuera la contraria? ¿Qué ganaría o perdería quien empieza,
#    y qué quien entrena un modelo grande?

# %% [markdown] key="reflect" lang="pt" src="93498192"
# 1. Uma fita grava as operações que realmente rodaram, não uma fórmula. O que isso permite que a
#    derivação simbólica de uma fórmula escrita não permitiria? E qual é o custo?
# 2. Por que o gradiente em relação a uma matriz de pesos precisa ter exatamente o formato dessa
#    matriz? Pense no que `w - lr * dw` exige.
# 3. Uma fita responde uma vez só, a menos que seja persistente. Se você projetasse a biblioteca,
#    faria da escolha contrária o padrão? O que ganharia ou perderia quem está começando, e o que
#    ganharia ou perderia quem treina um modelo grande?

# %% [markdown] key="reflect" lang="ru" src="93498192"
# 1. Лента записывает операции, которые действительно выполнились, а не формулу. Что это позволяет
#    сделать такого, чего не позволило бы дифференцирование выписанной формулы, и чем за это
#    приходится платить?
# 2. Почему градиент по матрице весов должен иметь в точности форму этой матрицы? Подумайте, что
#    нужно для `w - lr * dw`.
# 3. Лента отвечает только один раз, если она не персистентная. Если бы вы проектировали
#    библиотеку, сделали бы вы поведением по умолчанию обратное? Что бы от этого выиграл или
#    потерял новичок, а что — тот, кто обучает большую модель?
