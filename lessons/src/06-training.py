# ---
# jupyter:
#   minitape:
#     lesson: 06-training
# ---

# %% [markdown] key="title" lang="en"
# # Lesson 6 · Training with gradients
#
# The previous lessons were about computing gradients. This one is about what they are for:
# *training*, that is, changing a model's parameters step by step so that its loss goes down.
# You will write the training loop yourself, first for a straight line and then for a small
# neural network, and then let a Keras optimizer do the update for you. <!-- claim: l06.keras-optimizers -->
#
# In this lesson you will learn:
#
# - how one step of *gradient descent* works, and why it updates variables with `assign_sub`;
# - how to write a training loop, read its *loss curve*, and choose the *learning rate*;
# - how `tf.keras.optimizers.SGD` and `Adam` replace the hand-written update, through
#   `apply_gradients`;
# - how to train a small *multilayer perceptron* (MLP) to fit a curve;
# - how the same code runs on a CPU or on a GPU.

# %% [markdown] key="title" lang="es" src="2a58a27e"
# # Lección 6 · Entrenar con gradientes
#
# Las lecciones anteriores trataban de cómo calcular gradientes. Esta trata de para qué sirven:
# para *entrenar*, es decir, para cambiar los parámetros de un modelo paso a paso de modo que su
# pérdida baje. Escribirás tú el bucle de entrenamiento, primero para una recta y después
# para una pequeña red neuronal, y luego dejarás que un optimizador de Keras haga la
# actualización por ti. <!-- claim: l06.keras-optimizers -->
#
# En esta lección aprenderás:
#
# - cómo funciona un paso de *descenso del gradiente* y por qué actualiza las variables con
#   `assign_sub`;
# - cómo escribir un bucle de entrenamiento, leer su *curva de pérdida* y elegir la *tasa de
#   aprendizaje* (*learning rate*);
# - cómo `tf.keras.optimizers.SGD` y `Adam` sustituyen la actualización escrita a mano, mediante
#   `apply_gradients`;
# - cómo entrenar un pequeño *perceptrón multicapa* (MLP) para que se ajuste a una curva;
# - cómo el mismo código se ejecuta en una CPU o en una GPU.

# %% [markdown] key="title" lang="pt" src="2a58a27e"
# # Lição 6 · Treinando com gradientes
#
# As lições anteriores mostraram como calcular gradientes. Esta mostra para que eles servem:
# para *treinar*, isto é, mudar os parâmetros de um modelo passo a passo de modo que a perda
# dele diminua. Você mesmo vai escrever o laço de treinamento, primeiro para uma reta e depois para
# uma pequena rede neural, e em seguida vai deixar um otimizador do Keras fazer a atualização
# por você. <!-- claim: l06.keras-optimizers -->
#
# Nesta lição você vai aprender:
#
# - como funciona um passo de *descida do gradiente* e por que ele atualiza as variáveis com
#   `assign_sub`;
# - como escrever um laço de treinamento, ler a sua *curva de perda* e escolher a *taxa de
#   aprendizado* (*learning rate*);
# - como `tf.keras.optimizers.SGD` e `Adam` substituem a atualização escrita à mão, por meio de
#   `apply_gradients`;
# - como treinar um pequeno *perceptron multicamadas* (MLP) para se ajustar a uma curva;
# - como o mesmo código roda em uma CPU ou em uma GPU.

# %% [markdown] key="title" lang="ru" src="2a58a27e"
# # Урок 6 · Обучение с помощью градиентов
#
# Предыдущие уроки были о том, как вычислять градиенты. Этот — о том, зачем они нужны: для
# *обучения*, то есть для того, чтобы шаг за шагом менять параметры модели так, чтобы её функция
# потерь уменьшалась. Вы сами напишете цикл обучения — сначала для прямой, потом для небольшой
# нейронной сети, — а затем поручите обновление параметров оптимизатору Keras. <!-- claim: l06.keras-optimizers -->
#
# В этом уроке вы узнаете:
#
# - как устроен один шаг *градиентного спуска* и почему переменные обновляют с помощью
#   `assign_sub`;
# - как написать цикл обучения, читать его *кривую потерь* и выбирать *скорость обучения*
#   (*learning rate*);
# - как `tf.keras.optimizers.SGD` и `Adam` заменяют обновление, написанное вручную, через метод
#   `apply_gradients`;
# - как обучить небольшой *многослойный перцептрон* (MLP) приближать кривую;
# - как один и тот же код выполняется и на CPU, и на GPU.

# %% [markdown] key="setup" lang="en"
# As in every lesson, `import minitape as tf`. We also use NumPy to make the data, matplotlib
# for the plots and ipywidgets for a slider. <!-- claim: l06.setup-tools -->

# %% [markdown] key="setup" lang="es" src="c577d458"
# Como en todas las lecciones, `import minitape as tf`. Además usamos NumPy para generar los
# datos, matplotlib para los gráficos e ipywidgets para un deslizador. <!-- claim: l06.setup-tools -->

# %% [markdown] key="setup" lang="pt" src="c577d458"
# Como em todas as lições, `import minitape as tf`. Também usamos o NumPy para gerar os dados, o
# matplotlib para os gráficos e o ipywidgets para um controle deslizante. <!-- claim: l06.setup-tools -->

# %% [markdown] key="setup" lang="ru" src="c577d458"
# Как и в каждом уроке, пишем `import minitape as tf`. Кроме того, нам понадобятся NumPy для
# создания данных, matplotlib для графиков и ipywidgets для ползунка. <!-- claim: l06.setup-tools -->

# %% key="setup-code"

import ipywidgets as widgets
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

import minitape as tf
from lessons.figures import describe, png
from lessons.i18n import t
from lessons.plural import tn
from lessons.widgets import label_sliders

label_sliders()

# %% [markdown] key="data" lang="en"
# ## A line through noisy points
#
# Our first model is the simplest there is: a straight line $\hat y = w x + b$ with two
# parameters, the slope $w$ and the intercept $b$. We make 100 points around the line
# $y = 3x - 1$, with a little noise added, and ask gradient descent to find $w$ and $b$ from
# the points alone.

# %% [markdown] key="data" lang="es" src="2f3cae39"
# ## Una recta entre puntos con ruido
#
# Nuestro primer modelo es el más sencillo que existe: una recta $\hat y = w x + b$ con dos
# parámetros, la pendiente $w$ y el término independiente $b$ (la ordenada en el origen). Generamos 100 puntos alrededor de
# la recta $y = 3x - 1$, con un poco de ruido, y le pedimos al descenso del gradiente que
# encuentre $w$ y $b$ a partir de los puntos, sin más información.

# %% [markdown] key="data" lang="pt" src="2f3cae39"
# ## Uma reta entre pontos com ruído
#
# Nosso primeiro modelo é o mais simples que existe: uma reta $\hat y = w x + b$ com dois
# parâmetros, a inclinação $w$ e o intercepto $b$. Geramos 100 pontos em torno da reta
# $y = 3x - 1$, com um pouco de ruído, e pedimos à descida do gradiente que encontre $w$ e $b$
# só a partir dos pontos.

# %% [markdown] key="data" lang="ru" src="2f3cae39"
# ## Прямая среди зашумлённых точек
#
# Наша первая модель — самая простая из возможных: прямая $\hat y = w x + b$ с двумя
# параметрами, угловым коэффициентом $w$ и свободным членом $b$. Сгенерируем 100 точек вокруг
# прямой $y = 3x - 1$, добавив немного шума, и попросим градиентный спуск найти $w$ и $b$ только
# по этим точкам.

# %% key="data-code"
rng = np.random.default_rng(5)
x_data = rng.uniform(-1.0, 1.0, size=100).astype(np.float32)
y_data = (3.0 * x_data - 1.0 + rng.normal(0.0, 0.3, size=100)).astype(np.float32)

x = tf.constant(x_data)
y = tf.constant(y_data)
print(x.shape, y.shape)

# %% [markdown] key="loss" lang="en"
# ## Model, loss, gradient
#
# The parameters are `tf.Variable`s, which the tape watches on its own; we start from $w = 0$
# and $b = 0$. How far the line is from the points is measured by the *mean squared error*
#
# $$L(w, b) = \frac{1}{N} \sum_{i=1}^{N} (w x_i + b - y_i)^2,$$
#
# the *loss*. Training means finding the $w$ and $b$ that make it small. The tape gives its
# gradient; for a model this small we can also work it out by hand,
# $\frac{\partial L}{\partial w} = \frac{2}{N} \sum_i (w x_i + b - y_i)\, x_i$ and
# $\frac{\partial L}{\partial b} = \frac{2}{N} \sum_i (w x_i + b - y_i)$, and check that the
# two agree:

# %% [markdown] key="loss" lang="es" src="d2c51d34"
# ## Modelo, pérdida, gradiente
#
# Los parámetros son `tf.Variable`, que la cinta observa por sí sola; empezamos con $w = 0$ y
# $b = 0$. Lo lejos que está la recta de los puntos lo mide el *error cuadrático medio* (ECM)
#
# $$L(w, b) = \frac{1}{N} \sum_{i=1}^{N} (w x_i + b - y_i)^2,$$
#
# la *pérdida* (*loss*). Entrenar consiste en encontrar los $w$ y $b$ que la hacen pequeña. La
# cinta nos da su gradiente; en un modelo tan pequeño también podemos calcularlo a mano,
# $\frac{\partial L}{\partial w} = \frac{2}{N} \sum_i (w x_i + b - y_i)\, x_i$ y
# $\frac{\partial L}{\partial b} = \frac{2}{N} \sum_i (w x_i + b - y_i)$, y comprobar que ambos
# resultados coinciden:

# %% [markdown] key="loss" lang="pt" src="d2c51d34"
# ## Modelo, perda, gradiente
#
# Os parâmetros são `tf.Variable`, que a fita observa por conta própria; começamos com $w = 0$ e
# $b = 0$. A distância entre a reta e os pontos é medida pelo *erro quadrático médio* (EQM; em
# inglês, MSE)
#
# $$L(w, b) = \frac{1}{N} \sum_{i=1}^{N} (w x_i + b - y_i)^2,$$
#
# a *perda* (*loss*). Treinar é encontrar os $w$ e $b$ que a deixam pequena. A fita nos dá o
# gradiente dela; num modelo tão pequeno também dá para calculá-lo à mão,
# $\frac{\partial L}{\partial w} = \frac{2}{N} \sum_i (w x_i + b - y_i)\, x_i$ e
# $\frac{\partial L}{\partial b} = \frac{2}{N} \sum_i (w x_i + b - y_i)$, e conferir que os dois
# resultados coincidem:

# %% [markdown] key="loss" lang="ru" src="d2c51d34"
# ## Модель, функция потерь, градиент
#
# Параметры — это `tf.Variable`, и лента отслеживает их сама; начнём с $w = 0$ и $b = 0$.
# Насколько прямая далека от точек, измеряет *среднеквадратичная ошибка* (MSE, *mean squared
# error*)
#
# $$L(w, b) = \frac{1}{N} \sum_{i=1}^{N} (w x_i + b - y_i)^2$$
#
# Это и есть *функция потерь* (*loss*). Обучить модель — значит найти такие $w$ и $b$, при которых потери
# малы. Градиент функции потерь даёт лента; для такой маленькой модели его можно найти и вручную:
# $\frac{\partial L}{\partial w} = \frac{2}{N} \sum_i (w x_i + b - y_i)\, x_i$ и
# $\frac{\partial L}{\partial b} = \frac{2}{N} \sum_i (w x_i + b - y_i)$, — и убедиться, что
# результаты совпадают:

# %% key="loss-code"
w = tf.Variable(0.0)
b = tf.Variable(0.0)


def predict(x):
    return w * x + b


def mse(y_pred, y_true):
    return tf.reduce_mean((y_pred - y_true) ** 2)


with tf.GradientTape() as tape:
    loss = mse(predict(x), y)

dw, db = tape.gradient(loss, [w, b])

residual = w.numpy() * x_data + b.numpy() - y_data
print(loss.numpy())
print(dw.numpy(), np.mean(2 * residual * x_data))
print(db.numpy(), np.mean(2 * residual))

# %% [markdown] key="step" lang="en"
# ## One step downhill
#
# The gradient points in the direction in which the loss grows fastest, so a small move the
# other way lowers it. That move is one step of *gradient descent*:
#
# $$w \leftarrow w - \eta \frac{\partial L}{\partial w}, \qquad
#   b \leftarrow b - \eta \frac{\partial L}{\partial b}.$$
#
# The step size $\eta$ is the *learning rate* (`learning_rate` in Keras, often `lr` in code). <!-- claim: l06.learning-rate-name -->
# A Variable changes its value in place with `assign_sub` ("assign, subtracting"):
# `w.assign_sub(lr * dw)` is $w \leftarrow w - \eta \frac{\partial L}{\partial w}$. After one
# step with $\eta = 0.1$ the loss is already lower:

# %% [markdown] key="step" lang="es" src="050abf27"
# ## Un paso cuesta abajo
#
# El gradiente apunta en la dirección en la que la pérdida crece más deprisa, así que un pequeño
# movimiento en sentido contrario la hace bajar. Ese movimiento es un paso de *descenso del
# gradiente*:
#
# $$w \leftarrow w - \eta \frac{\partial L}{\partial w}, \qquad
#   b \leftarrow b - \eta \frac{\partial L}{\partial b}.$$
#
# El tamaño del paso, $\eta$, es la *tasa de aprendizaje* (`learning_rate` en Keras, a menudo
# `lr` en el código). <!-- claim: l06.learning-rate-name --> Una variable cambia su propio valor, sin dejar de ser la misma variable,
# con `assign_sub` («asignar restando»): `w.assign_sub(lr * dw)` es
# $w \leftarrow w - \eta \frac{\partial L}{\partial w}$. Tras un solo paso con $\eta = 0{,}1$ la
# pérdida ya es menor:

# %% [markdown] key="step" lang="pt" src="050abf27"
# ## Um passo morro abaixo
#
# O gradiente aponta na direção em que a perda cresce mais depressa; por isso, um pequeno
# movimento no sentido contrário a faz diminuir. Esse movimento é um passo de *descida do
# gradiente*:
#
# $$w \leftarrow w - \eta \frac{\partial L}{\partial w}, \qquad
#   b \leftarrow b - \eta \frac{\partial L}{\partial b}.$$
#
# O tamanho do passo, $\eta$, é a *taxa de aprendizado* (`learning_rate` no Keras, muitas vezes
# `lr` no código). <!-- claim: l06.learning-rate-name --> Uma variável muda o próprio valor, continuando a ser a mesma variável, com
# `assign_sub` (“atribuir subtraindo”): `w.assign_sub(lr * dw)` é
# $w \leftarrow w - \eta \frac{\partial L}{\partial w}$. Depois de um único passo com
# $\eta = 0{,}1$ a perda já é menor:

# %% [markdown] key="step" lang="ru" src="050abf27"
# ## Шаг вниз по склону
#
# Градиент указывает направление, в котором функция потерь растёт быстрее всего, поэтому
# небольшое смещение в противоположную сторону её уменьшает. Такое смещение — это один шаг
# *градиентного спуска*:
#
# $$w \leftarrow w - \eta \frac{\partial L}{\partial w}, \qquad
#   b \leftarrow b - \eta \frac{\partial L}{\partial b}.$$
#
# Размер шага $\eta$ называется *скоростью обучения* (`learning_rate` в Keras, в коде часто
# `lr`). <!-- claim: l06.learning-rate-name --> Переменная меняет своё значение на месте, оставаясь тем же объектом, с помощью
# `assign_sub` («присвоить с вычитанием»): `w.assign_sub(lr * dw)` — это
# $w \leftarrow w - \eta \frac{\partial L}{\partial w}$. Уже после одного шага с $\eta = 0{,}1$
# потери стали меньше:

# %% key="step-code"
lr = 0.1
w.assign_sub(lr * dw)
b.assign_sub(lr * db)

print(f"w = {w.numpy():.4f}, b = {b.numpy():.4f}")
print(t("l06.step.loss", before=f"{loss.numpy():.4f}", after=f"{mse(predict(x), y).numpy():.4f}"))

# %% [markdown] key="rebind" lang="en"
# ## Why `assign_sub`, and not `w = w - lr * dw`?
#
# It is tempting to write the update as ordinary arithmetic. Let us try it, in a loop of three
# steps that prints the type of `w` and its gradient at each step:

# %% [markdown] key="rebind" lang="es" src="111b3e10"
# ## ¿Por qué `assign_sub` y no `w = w - lr * dw`?
#
# Es tentador escribir la actualización como una cuenta normal. Probémoslo en un bucle de tres
# pasos que muestra, en cada paso, el tipo de `w` y su gradiente:

# %% [markdown] key="rebind" lang="pt" src="111b3e10"
# ## Por que `assign_sub`, e não `w = w - lr * dw`?
#
# É tentador escrever a atualização como uma conta comum. Vamos experimentar, em um laço de três
# passos que mostra, a cada passo, o tipo de `w` e o seu gradiente:

# %% [markdown] key="rebind" lang="ru" src="111b3e10"
# ## Почему `assign_sub`, а не `w = w - lr * dw`?
#
# Хочется записать обновление как обычную арифметику. Попробуем — в цикле из трёх шагов, который
# на каждом шаге печатает тип `w` и его градиент:

# %% key="rebind-code"
def broken_steps(lr, steps):
    w = tf.Variable(0.0)
    b = tf.Variable(0.0)
    for step in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((w * x + b - y) ** 2)
        dw, db = tape.gradient(loss, [w, b])
        print(step, type(w).__name__, dw)
        w = w - lr * dw
        b = b - lr * db


try:
    broken_steps(0.1, 3)
except TypeError as error:
    print(t("l06.gloss.none_times"))
    print("TypeError:", error)

# %% [markdown] key="rebind-why" lang="en"
# The first step works; in the second both gradients are `None`, and the update fails.
# `w - lr * dw` is not a changed `w`: it is a new `tf.Tensor`, the result of an operation, and
# `w = ...` only makes the name `w` point to it. A tape watches trainable *Variables* on its
# own, but not Tensors (lessons 2 and 3), so the second tape records nothing that leads to `w`.
# `assign_sub` keeps the same Variable and changes its value. That is also what models and
# optimizers need: they hold the Variable object itself, not your name for it.

# %% [markdown] key="rebind-why" lang="es" src="c5fef086"
# El primer paso funciona; en el segundo, los dos gradientes son `None` y la actualización
# falla. `w - lr * dw` no es `w` modificada: es un `tf.Tensor` nuevo, el resultado de una
# operación, y `w = ...` solo hace que el nombre `w` pase a referirse a él. Una cinta observa
# por sí sola las *variables* entrenables, pero no los tensores (lecciones 2 y 3), así que la segunda
# cinta no graba nada que lleve hasta `w`. `assign_sub` conserva la misma variable y cambia su
# valor. Eso es también lo que necesitan los modelos y los optimizadores: guardan el propio
# objeto `tf.Variable`, no el nombre que tú le das.

# %% [markdown] key="rebind-why" lang="pt" src="c5fef086"
# O primeiro passo funciona; no segundo, os dois gradientes são `None` e a atualização falha.
# `w - lr * dw` não é `w` modificada: é um `tf.Tensor` novo, o resultado de uma operação, e
# `w = ...` só faz o nome `w` passar a apontar para ele. Uma fita observa sozinha as *variáveis*
# treináveis, mas não os tensores comuns (lições 2 e 3); por isso a segunda fita não grava nada que
# leve até `w`. `assign_sub` mantém a mesma variável e muda o seu valor. É disso também que
# modelos e otimizadores precisam: eles guardam o próprio objeto `tf.Variable`, não o nome que
# você deu a ele.

# %% [markdown] key="rebind-why" lang="ru" src="c5fef086"
# Первый шаг проходит, а на втором оба градиента равны `None`, и обновление падает.
# `w - lr * dw` — это не изменённая `w`, а новый `tf.Tensor`, результат операции, и `w = ...`
# лишь заставляет имя `w` ссылаться на него. Лента сама отслеживает обучаемые *переменные*
# (`tf.Variable`), но не тензоры (уроки 2 и 3), поэтому вторая лента не записывает ничего, что вело бы к
# `w`. `assign_sub` сохраняет ту же переменную и меняет её значение. Это нужно и моделям, и
# оптимизаторам: они хранят сам объект `tf.Variable`, а не ваше имя для него.

# %% [markdown] key="loop" lang="en"
# ## The training loop
#
# A training loop repeats that step: a new tape each time (a tape answers once), the loss, the
# gradients, the update. We keep the loss of every step to look at it afterwards. One hundred
# steps with $\eta = 0.1$ take a fraction of a second:

# %% [markdown] key="loop" lang="es" src="c9af7b63"
# ## El bucle de entrenamiento
#
# Un bucle de entrenamiento repite ese paso: una cinta nueva cada vez (una cinta responde una
# sola vez), la pérdida, los gradientes, la actualización. Guardamos la pérdida de cada paso
# para examinarla después. Cien pasos con $\eta = 0{,}1$ tardan una fracción de segundo:

# %% [markdown] key="loop" lang="pt" src="c9af7b63"
# ## O laço de treinamento
#
# Um laço de treinamento repete esse passo: uma fita nova a cada vez (uma fita responde uma vez só),
# a perda, os gradientes, a atualização. Guardamos a perda de cada passo para examiná-la depois.
# Cem passos com $\eta = 0{,}1$ levam uma fração de segundo:

# %% [markdown] key="loop" lang="ru" src="c9af7b63"
# ## Цикл обучения
#
# Цикл обучения повторяет этот шаг: каждый раз новая лента (лента отвечает только один раз),
# потери, градиенты, обновление. Потери на каждом шаге сохраним, чтобы потом на них посмотреть.
# Сто шагов с $\eta = 0{,}1$ занимают доли секунды:

# %% key="loop-code"
def fit_line(lr, steps):
    w = tf.Variable(0.0)
    b = tf.Variable(0.0)
    losses = []
    for step in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((w * x + b - y) ** 2)
        dw, db = tape.gradient(loss, [w, b])
        w.assign_sub(lr * dw)
        b.assign_sub(lr * db)
        losses.append(loss.numpy())
    return w, b, losses


w, b, losses = fit_line(lr=0.1, steps=100)
print(f"w = {w.numpy():.4f}, b = {b.numpy():.4f}")

# %% [markdown] key="exact" lang="en"
# The points came from $w = 3$ and $b = -1$, but the noise moves the best line a little. For a
# straight line, the best $w$ and $b$ can also be computed directly, by least squares
# (`np.polyfit` returns the slope and then the intercept). After 100 steps, gradient descent
# is within a few thousandths of them:

# %% [markdown] key="exact" lang="es" src="92722a93"
# Los puntos se generaron con $w = 3$ y $b = -1$, pero el ruido desplaza un poco la mejor recta.
# Para una recta, los mejores $w$ y $b$ también se pueden calcular directamente, por mínimos
# cuadrados (`np.polyfit` devuelve la pendiente y después la ordenada en el origen). Tras 100
# pasos, el descenso del gradiente está a unas milésimas de ellos:

# %% [markdown] key="exact" lang="pt" src="92722a93"
# Os pontos foram gerados com $w = 3$ e $b = -1$, mas o ruído desloca um pouco a melhor reta.
# Para uma reta, os melhores $w$ e $b$ também podem ser calculados diretamente, por mínimos
# quadrados (`np.polyfit` devolve a inclinação e depois o intercepto). Depois de 100 passos, a
# descida do gradiente está a poucos milésimos deles:

# %% [markdown] key="exact" lang="ru" src="92722a93"
# Точки сгенерированы при $w = 3$ и $b = -1$, но шум немного сдвигает наилучшую прямую. Для
# прямой наилучшие $w$ и $b$ можно найти и напрямую, методом наименьших квадратов (`np.polyfit`
# возвращает сначала угловой коэффициент, потом свободный член). После 100 шагов градиентный
# спуск отличается от них лишь на несколько тысячных:

# %% key="exact-code"
print(np.polyfit(x_data, y_data, deg=1))

# %% [markdown] key="curve" lang="en"
# ## The loss curve
#
# The loss at every step, plotted, is the *loss curve*: the first thing to look at when you
# train, because it shows whether training works and when it stops making progress. <!-- claim: l06.loss-curve --> Its
# vertical axis is logarithmic, so that both the fast fall at the start and the slow end are
# visible. The loss levels off near $0.09$: the squared size of the noise, $0.3^2$, which no
# line can remove.

# %% [markdown] key="curve" lang="es" src="fa461751"
# ## La curva de pérdida
#
# La pérdida de cada paso, dibujada, es la *curva de pérdida*: lo primero que hay que mirar al
# entrenar, porque muestra si el entrenamiento funciona y cuándo deja de avanzar. <!-- claim: l06.loss-curve --> Su eje
# vertical es logarítmico, para que se vean tanto la caída rápida del principio como el final
# lento. La pérdida se estabiliza cerca de $0{,}09$: la varianza del ruido (su desviación estándar
# al cuadrado, $0{,}3^2$), que ninguna recta puede eliminar.

# %% [markdown] key="curve" lang="pt" src="fa461751"
# ## A curva de perda
#
# A perda de cada passo, num gráfico, é a *curva de perda*: a primeira coisa a olhar ao treinar,
# porque ela mostra se o treinamento funciona e quando ele para de progredir. <!-- claim: l06.loss-curve --> O eixo vertical é
# logarítmico, para que apareçam tanto a queda rápida do início quanto o final lento. A perda se
# estabiliza perto de $0{,}09$: a variância do ruído (o quadrado do seu desvio padrão, $0{,}3^2$),
# que nenhuma reta consegue eliminar.

# %% [markdown] key="curve" lang="ru" src="fa461751"
# ## Кривая потерь
#
# Потери на каждом шаге, нанесённые на график, образуют *кривую потерь* (*loss curve*). <!-- claim: l06.loss-curve --> На неё
# смотрят в первую очередь: она показывает, идёт ли обучение и когда оно перестаёт продвигаться.
# Вертикальная ось логарифмическая, чтобы было видно и быстрое падение в начале, и медленный
# конец. Потери выходят на уровень около $0{,}09$ — это дисперсия шума, $0{,}3^2$ (квадрат его
# стандартного отклонения), которую никакая прямая не уберёт.

# %% key="curve-code"
fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.6), layout="constrained")
ends = np.array([-1.0, 1.0])
left.plot(x_data, y_data, ".", alpha=0.5, label=t("l06.plot.data"))
left.plot(ends, w.numpy() * ends + b.numpy(), "-", color="C1", label=t("l06.plot.line"))
left.set_xlabel("x")
left.set_ylabel("y")
left.legend()
right.plot(losses)
right.set_yscale("log")
right.set_xlabel(t("l06.plot.step"))
right.set_ylabel(t("l06.plot.loss"))
right.set_title(t("l06.plot.loss_curve"), fontsize=10)
describe(t("l06.fit.alt"))
plt.show()

# %% [markdown] key="lr" lang="en"
# ## Explore: the learning rate
#
# The learning rate decides how far each step goes. Too small, and training crawls. Too large,
# and each step jumps over the bottom of the valley and lands on the other side, higher than
# where it started: the loss grows without end. Move the slider: each move trains the line
# again from $w = b = 0$ for 50 steps and redraws the loss curve. Try $\eta = 0.01$, $0.1$ and
# $0.5$, then $1$ and beyond.
#
# For this loss the limit can be computed: gradient descent diverges when $\eta$ is larger than
# 2 divided by the largest curvature of $L$ (the largest eigenvalue of its matrix of second
# derivatives), which here is a little over 2. So the limit is just under $\eta = 1$: at
# $\eta = 1$ the loss first falls and then slowly climbs back, and a little higher it explodes.

# %% [markdown] key="lr" lang="es" src="2001be21"
# ## Explora: la tasa de aprendizaje
#
# La tasa de aprendizaje decide cuánto avanza cada paso. Si es demasiado pequeña, el
# entrenamiento se arrastra. Si es demasiado grande, cada paso salta por encima del fondo del
# valle y cae en la otra ladera, más arriba de donde empezó: la pérdida crece sin fin. Mueve el
# deslizador: cada movimiento vuelve a entrenar la recta desde $w = b = 0$ durante 50 pasos y
# redibuja la curva de pérdida. Prueba $\eta = 0{,}01$; $0{,}1$ y $0{,}5$, y después $1$ y más.
#
# Para esta pérdida el límite se puede calcular: el descenso del gradiente diverge cuando $\eta$
# es mayor que 2 dividido entre la mayor curvatura de $L$ (el mayor autovalor de su hessiano,
# lección 5), que aquí es algo mayor que 2. Así que el límite queda justo por debajo de
# $\eta = 1$: con $\eta = 1$ la pérdida primero baja y luego vuelve a subir despacio, y un poco
# más arriba se dispara.

# %% [markdown] key="lr" lang="pt" src="2001be21"
# ## Explore: a taxa de aprendizado
#
# A taxa de aprendizado decide quanto cada passo avança. Pequena demais, e o treinamento se arrasta.
# Grande demais, e cada passo pula por cima do fundo do vale e cai na outra encosta, mais alto
# do que onde começou: a perda cresce sem parar. Mova o controle deslizante: cada movimento
# treina a reta de novo a partir de $w = b = 0$ por 50 passos e redesenha a curva de perda.
# Experimente $\eta = 0{,}01$; $0{,}1$ e $0{,}5$, depois $1$ e além.
#
# Para esta perda o limite pode ser calculado: a descida do gradiente diverge quando $\eta$ é
# maior que 2 dividido pela maior curvatura de $L$ (o maior autovalor da sua hessiana,
# lição 5), que aqui é um pouco maior que 2. Então o limite fica logo abaixo de $\eta = 1$: com
# $\eta = 1$ a perda primeiro cai e depois volta a subir devagar, e um pouco acima disso ela
# explode.

# %% [markdown] key="lr" lang="ru" src="2001be21"
# ## Исследуйте: скорость обучения
#
# Скорость обучения определяет, насколько далеко уходит каждый шаг. Если она слишком мала,
# обучение ползёт. Если слишком велика, каждый шаг перепрыгивает через дно долины и попадает на
# противоположный склон выше той точки, с которой начал: потери растут без конца. Двигайте
# ползунок: при каждом движении прямая заново обучается 50 шагов, начиная с $w = b = 0$, и
# кривая потерь перерисовывается. Попробуйте $\eta = 0{,}01$; $0{,}1$ и $0{,}5$, а затем $1$ и
# больше.
#
# Для этой функции потерь предел можно вычислить: градиентный спуск расходится, когда $\eta$
# больше, чем 2, делённое на наибольшую кривизну $L$ (наибольшее собственное значение её
# гессиана, урок 5), а она здесь чуть больше 2. Значит, предел лежит чуть ниже $\eta = 1$: при
# $\eta = 1$ потери сначала падают, а потом медленно растут, а ещё немного выше — взрываются.

# %% key="lr-code"
def loss_curve_png(losses, lr):
    fig = Figure(figsize=(6.0, 3.4), dpi=80)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.plot(losses, marker=".")
    ax.set_yscale("log")
    ax.set_xlabel(t("l06.plot.step"))
    ax.set_ylabel(t("l06.plot.loss"))
    ax.set_title(t("l06.lr.title", lr=f"{lr:.3g}"), fontsize=10)
    fig.subplots_adjust(left=0.16, right=0.97, bottom=0.16, top=0.9)
    return png(fig)


lr_slider = widgets.FloatLogSlider(value=0.1, base=10, min=-2, max=0.1, step=0.05,
                                   description=t("l06.lr.slider"), continuous_update=False,
                                   readout_format=".3f", layout=widgets.Layout(width="420px"),
                                   style={"description_width": "initial"})
lr_readout = widgets.HTML()
lr_image = widgets.Image(format="png")


def retrain(change=None):
    w, b, losses = fit_line(lr_slider.value, steps=50)
    text = tn("l06.lr.readout.plural", 50, loss=f"{losses[-1]:.4g}", w=f"{w.numpy():.3f}",
             b=f"{b.numpy():.3f}")
    if losses[-1] > 1.01 * min(losses):
        text += " " + t("l06.lr.diverged")
    lr_readout.value = text
    lr_image.value = loss_curve_png(losses, lr_slider.value)


lr_slider.observe(retrain, names="value")
retrain()
widgets.VBox([lr_slider, lr_readout, lr_image])

# %% [markdown] key="sgd" lang="en"
# ## Optimizers: `tf.keras.optimizers.SGD`
#
# Writing the update by hand is fine for two parameters, but a neural network has many, and
# there are better update rules than plain subtraction. Keras' *optimizers* do the update for
# you. <!-- claim: l06.keras-optimizers --> `tf.keras.optimizers.SGD(learning_rate=0.1)` is the same gradient descent ("SGD" stands
# for *stochastic gradient descent*; Exercise 4 explains the "stochastic"). Its method
# `apply_gradients` takes pairs *(gradient, variable)*, and `zip(grads, variables)` makes them
# from the list of gradients and the list of variables, which are in the same order. The loop
# keeps its tape and loses the hand-written update:

# %% [markdown] key="sgd" lang="es" src="7f89dde0"
# ## Optimizadores: `tf.keras.optimizers.SGD`
#
# Escribir la actualización a mano está bien para dos parámetros, pero una red neuronal tiene
# muchos, y hay reglas de actualización mejores que la simple resta. Los *optimizadores* de
# Keras hacen la actualización por ti. <!-- claim: l06.keras-optimizers --> `tf.keras.optimizers.SGD(learning_rate=0.1)` es el mismo
# descenso del gradiente («SGD» son las siglas en inglés de *descenso del gradiente
# estocástico*; el ejercicio 4 explica lo de «estocástico»). Su método `apply_gradients` recibe
# pares *(gradiente, variable)*, y `zip(grads, variables)` los forma a partir de la lista de
# gradientes y la lista de variables, que van en el mismo orden. El bucle conserva su cinta y
# prescinde de la actualización escrita a mano:

# %% [markdown] key="sgd" lang="pt" src="7f89dde0"
# ## Otimizadores: `tf.keras.optimizers.SGD`
#
# Escrever a atualização à mão funciona bem para dois parâmetros, mas uma rede neural tem
# muitos, e existem regras de atualização melhores do que a simples subtração. Os *otimizadores*
# do Keras fazem a atualização por você. <!-- claim: l06.keras-optimizers --> `tf.keras.optimizers.SGD(learning_rate=0.1)` é a mesma
# descida do gradiente (“SGD” é a sigla em inglês de *descida do gradiente estocástica*; o
# exercício 4 explica o “estocástica”). O método `apply_gradients` dele recebe pares
# *(gradiente, variável)*, e `zip(grads, variables)` monta esses pares a partir da lista de
# gradientes e da lista de variáveis, que estão na mesma ordem. O laço mantém a fita e dispensa a
# atualização escrita à mão:

# %% [markdown] key="sgd" lang="ru" src="7f89dde0"
# ## Оптимизаторы: `tf.keras.optimizers.SGD`
#
# Писать обновление вручную удобно, пока параметров два, но у нейронной сети их много, и есть
# правила обновления лучше простого вычитания. *Оптимизаторы* Keras выполняют обновление за вас. <!-- claim: l06.keras-optimizers -->
# `tf.keras.optimizers.SGD(learning_rate=0.1)` — это тот же градиентный спуск (SGD — английское
# сокращение от *stochastic gradient descent*, «стохастический градиентный спуск»; что значит
# «стохастический», объясняет упражнение 4). Его метод `apply_gradients` принимает пары
# *(градиент, переменная)*, а `zip(grads, variables)` составляет их из списка градиентов и
# списка переменных, идущих в одном порядке. Лента в цикле остаётся, а обновление вручную
# исчезает:

# %% key="sgd-code"
def fit_line_with(optimizer, steps):
    w = tf.Variable(0.0)
    b = tf.Variable(0.0)
    losses = []
    for step in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((w * x + b - y) ** 2)
        grads = tape.gradient(loss, [w, b])
        optimizer.apply_gradients(zip(grads, [w, b]))
        losses.append(loss.numpy())
    return w, b, losses


w_sgd, b_sgd, losses_sgd = fit_line_with(tf.keras.optimizers.SGD(learning_rate=0.1), steps=100)
print(f"w = {w_sgd.numpy():.4f}, b = {b_sgd.numpy():.4f}")
print(np.allclose(losses_sgd, losses))

# %% [markdown] key="sgd-same" lang="en"
# These are the numbers of our own loop, step for step: `SGD` without momentum does exactly
# $v \leftarrow v - \eta\, g$ for every pair $(g, v)$.

# %% [markdown] key="sgd-same" lang="es" src="41232b26"
# Son los mismos números de nuestro bucle, paso a paso: `SGD` sin momento (*momentum*) hace
# exactamente $v \leftarrow v - \eta\, g$ para cada par $(g, v)$.

# %% [markdown] key="sgd-same" lang="pt" src="41232b26"
# São os mesmos números do nosso laço, passo a passo: `SGD` sem momento (*momentum*) faz
# exatamente $v \leftarrow v - \eta\, g$ para cada par $(g, v)$.

# %% [markdown] key="sgd-same" lang="ru" src="41232b26"
# Это те же числа, что и в нашем цикле, шаг за шагом: `SGD` без импульса (*momentum*) делает
# ровно $v \leftarrow v - \eta\, g$ для каждой пары $(g, v)$.

# %% [markdown] key="adam" lang="en"
# ## Adam
#
# `tf.keras.optimizers.Adam` is the optimizer most used to train neural networks. For every
# variable it keeps a running average of the recent gradients (the *momentum*, which smooths
# the direction) and of their squares, and divides the first by the square root of the second,
# so every parameter moves by steps of about $\eta$, whether its gradient is large or small.
# That memory lives in the optimizer object: create the optimizer once, before the loop, and
# use it for every step. On our line both optimizers reach the noise level; they get there by
# different paths:

# %% [markdown] key="adam" lang="es" src="bfdc5dae"
# ## Adam
#
# `tf.keras.optimizers.Adam` es el optimizador más usado para entrenar redes neuronales. Para
# cada variable lleva una media móvil de los gradientes recientes (el *momento*, que suaviza la
# dirección) y otra de sus cuadrados, y divide la primera entre la raíz cuadrada de la segunda,
# de modo que cada parámetro avanza a pasos de un tamaño parecido a $\eta$, tanto si su
# gradiente es grande como si es pequeño. Esa memoria vive en el objeto optimizador: crea el
# optimizador una sola vez, antes del bucle, y úsalo en todos los pasos. Con nuestra recta, los
# dos optimizadores llegan al nivel del ruido, pero por caminos distintos:

# %% [markdown] key="adam" lang="pt" src="bfdc5dae"
# ## Adam
#
# `tf.keras.optimizers.Adam` é o otimizador mais usado para treinar redes neurais. Para cada
# variável ele mantém uma média móvel dos gradientes recentes (o *momento*, que suaviza a
# direção) e outra dos seus quadrados, e divide a primeira pela raiz quadrada da segunda; assim,
# cada parâmetro anda em passos de tamanho próximo de $\eta$, seja o seu gradiente grande ou
# pequeno. Essa memória fica no objeto otimizador: crie o otimizador uma única vez, antes do
# laço, e use-o em todos os passos. Com a nossa reta, os dois otimizadores chegam ao nível do
# ruído, mas por caminhos diferentes:

# %% [markdown] key="adam" lang="ru" src="bfdc5dae"
# ## Adam
#
# `tf.keras.optimizers.Adam` — самый популярный оптимизатор для обучения нейронных сетей. Для
# каждой переменной он хранит скользящее среднее недавних градиентов (*импульс*, который
# сглаживает направление) и скользящее среднее их квадратов и делит первое на квадратный корень
# из второго. Поэтому каждый параметр движется шагами размером порядка $\eta$, независимо от
# того, велик его градиент или мал. Эта память живёт в объекте оптимизатора: создайте оптимизатор один раз, до
# цикла, и используйте его на всех шагах. На нашей прямой оба оптимизатора доходят до уровня
# шума, но разными путями:

# %% key="adam-code"
w_adam, b_adam, losses_adam = fit_line_with(tf.keras.optimizers.Adam(learning_rate=0.1), steps=100)
print(f"w = {w_adam.numpy():.4f}, b = {b_adam.numpy():.4f}")

plt.figure(figsize=(6.4, 3.6))
plt.plot(losses_sgd, label="SGD")
plt.plot(losses_adam, label="Adam")
plt.yscale("log")
plt.xlabel(t("l06.plot.step"))
plt.ylabel(t("l06.plot.loss"))
plt.title(t("l06.plot.optimizers"), fontsize=10)
plt.legend()
describe(t("l06.optimizers.alt"))
plt.show()

# %% [markdown] key="adam-bump" lang="en"
# Adam's momentum carries it a little past the best line around step 50, and then it comes
# back: that is the bump in its curve. A bump like this is normal; a curve that keeps going up
# is not.

# %% [markdown] key="adam-bump" lang="es" src="c538cf67"
# El momento de Adam lo lleva un poco más allá de la mejor recta hacia el paso 50, y luego
# vuelve: es el pequeño repunte de su curva. Un repunte así es normal; una curva que no deja de
# subir, no.

# %% [markdown] key="adam-bump" lang="pt" src="c538cf67"
# O momento do Adam o leva um pouco além da melhor reta por volta do passo 50, e depois ele
# volta: é a pequena elevação na sua curva. Uma elevação assim é normal; uma curva que não para
# de subir, não.

# %% [markdown] key="adam-bump" lang="ru" src="c538cf67"
# Импульс проносит Adam немного дальше наилучшей прямой около 50-го шага, после чего тот
# возвращается: отсюда небольшой горб на его кривой. Такой горб — это нормально; кривая, которая
# всё время растёт, — нет.

# %% [markdown] key="mlp" lang="en"
# ## A small neural network
#
# A straight line cannot follow $\sin x$. A *multilayer perceptron* (MLP) can. Its *hidden
# layer* of 16 units computes $h = \tanh(x W_1 + b_1)$, sixteen differently bent copies of
# the input, and its output layer adds them up with weights: $\hat y = h W_2 + b_2$. Each layer
# is a `tf.keras.layers.Dense`; the model is a subclass of `tf.keras.Model`: its `call`
# says what it computes, and it finds the layers assigned to its attributes, and their variables,
# by itself. <!-- claim: l06.model-tracks-layers --> (A `tf.Module` would not: TensorFlow's does not look
# inside Keras 3 layers, and its `trainable_variables` would be empty.) <!-- claim: l06.module-misses-keras --> The layers create their variables the first time they
# are called, when they see the shape of the input; after that, `model.trainable_variables`
# lists the two *kernels* (weight matrices) and the two *biases*.

# %% [markdown] key="mlp" lang="es" src="e86be5d6"
# ## Una pequeña red neuronal
#
# Una recta no puede seguir a $\sin x$. Un *perceptrón multicapa* (MLP, por sus siglas en
# inglés) sí. Su *capa oculta* de 16 unidades calcula $h = \tanh(x W_1 + b_1)$, dieciséis copias
# de la entrada dobladas de formas distintas, y su capa de salida las suma con pesos:
# $\hat y = h W_2 + b_2$. Cada capa es una `tf.keras.layers.Dense`; el modelo es una subclase de
# `tf.keras.Model`: su `call` dice qué calcula, y encuentra por sí sola las capas asignadas a sus
# atributos, y las variables de estas. <!-- claim: l06.model-tracks-layers --> (Un `tf.Module` no lo haría: el de
# TensorFlow no mira dentro de las capas de Keras 3, y su `trainable_variables` quedaría vacía.) <!-- claim: l06.module-misses-keras --> Las capas crean sus
# variables la primera vez que se las llama, cuando ven la forma de la entrada; a partir de ahí,
# `model.trainable_variables` enumera los dos *kernels* (las matrices de pesos) y los dos
# *biases* (los sesgos).

# %% [markdown] key="mlp" lang="pt" src="e86be5d6"
# ## Uma pequena rede neural
#
# Uma reta não consegue acompanhar $\sin x$. Um *perceptron multicamadas* (MLP, na sigla em
# inglês) consegue. Sua *camada oculta* de 16 unidades calcula $h = \tanh(x W_1 + b_1)$,
# dezesseis cópias da entrada dobradas de jeitos diferentes, e sua camada de saída as soma com
# pesos: $\hat y = h W_2 + b_2$. Cada camada é uma `tf.keras.layers.Dense`; o modelo é uma
# subclasse de `tf.keras.Model`: o `call` dele diz o que ele calcula, e ele encontra sozinho as
# camadas atribuídas aos seus atributos, e as variáveis delas. <!-- claim: l06.model-tracks-layers --> (Um
# `tf.Module` não faria isso: o do TensorFlow não olha dentro das camadas do Keras 3, e a
# `trainable_variables` dele ficaria vazia.) <!-- claim: l06.module-misses-keras --> As camadas criam
# suas variáveis na primeira vez em que são chamadas, quando veem o formato da entrada; a partir
# daí, `model.trainable_variables` lista os dois *kernels* (as matrizes de pesos) e os dois
# *biases* (os vieses).

# %% [markdown] key="mlp" lang="ru" src="e86be5d6"
# ## Небольшая нейронная сеть
#
# Прямая не может повторить $\sin x$, а *многослойный перцептрон* (MLP) может. Его *скрытый
# слой* из 16 нейронов вычисляет $h = \tanh(x W_1 + b_1)$ — шестнадцать по-разному изогнутых
# копий входа, — а выходной слой складывает их с весами: $\hat y = h W_2 + b_2$. Каждый слой —
# это `tf.keras.layers.Dense`; модель — подкласс `tf.keras.Model`: его метод `call` говорит, что модель
# вычисляет, а слои, присвоенные её атрибутам, и их переменные она находит сама. <!-- claim: l06.model-tracks-layers -->
# (`tf.Module` так не умеет: в TensorFlow он не заглядывает внутрь слоёв Keras 3, и его
# `trainable_variables` оказался бы пустым.) <!-- claim: l06.module-misses-keras --> Слои создают переменные при первом вызове, когда узнают форму входа; после этого
# `model.trainable_variables` перечисляет две *матрицы весов* (*kernel*) и два *вектора
# смещений* (*bias*).

# %% key="mlp-code" tf="random"
class MLP(tf.keras.Model):
    def __init__(self, hidden_units, name=None):
        super().__init__(name=name)
        self.hidden = tf.keras.layers.Dense(hidden_units, activation="tanh")
        self.output_layer = tf.keras.layers.Dense(1)

    def call(self, x):
        return self.output_layer(self.hidden(x))


x_curve = np.linspace(-np.pi, np.pi, 64, dtype=np.float32).reshape(-1, 1)
y_curve = (np.sin(x_curve) + rng.normal(0.0, 0.1, size=x_curve.shape)).astype(np.float32)
x_train, y_train = tf.constant(x_curve), tf.constant(y_curve)

tf.keras.utils.set_random_seed(1)
model = MLP(hidden_units=16)
model(x_train)
for variable in model.trainable_variables:
    print(variable.name, variable.shape)

# %% [markdown] key="mlp-train" lang="en"
# The training loop is the one we wrote for the line, with `model.trainable_variables` as the
# variables. We put it in a function, `train_model`, so that we can run it again at the end of
# the lesson. Here: 300 steps of Adam.

# %% [markdown] key="mlp-train" lang="es" src="eab16b1d"
# El bucle de entrenamiento es el que escribimos para la recta, con `model.trainable_variables`
# como variables. Lo metemos en una función, `train_model`, para poder ejecutarlo otra vez al
# final de la lección. Aquí: 300 pasos de Adam.

# %% [markdown] key="mlp-train" lang="pt" src="eab16b1d"
# O laço de treinamento é o mesmo que escrevemos para a reta, com `model.trainable_variables` como
# variáveis. Nós o colocamos em uma função, `train_model`, para poder rodá-lo de novo no fim da
# lição. Aqui: 300 passos de Adam.

# %% [markdown] key="mlp-train" lang="ru" src="eab16b1d"
# Цикл обучения — тот же, что мы написали для прямой, только переменные теперь
# `model.trainable_variables`. Оформим его как функцию `train_model`, чтобы запустить ещё раз в
# конце урока. Здесь — 300 шагов Adam.

# %% key="mlp-train-code" tf="random"
def train_model(model, x, y, optimizer, steps):
    losses = []
    for step in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(x) - y) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        losses.append(loss.numpy())
    return losses


mlp_losses = train_model(model, x_train, y_train, tf.keras.optimizers.Adam(learning_rate=0.05),
                         steps=300)
print(t("l06.losses", first=f"{mlp_losses[0]:.4f}", last=f"{mlp_losses[-1]:.4f}"))

# %% [markdown] key="mlp-plot" lang="en"
# The fitted curve follows the sine through the noisy points, and the loss levels off near
# $0.01$, the squared size of this noise, $0.1^2$.

# %% [markdown] key="mlp-plot" lang="es" src="6d9b84f3"
# La curva ajustada sigue al seno entre los puntos con ruido, y la pérdida se estabiliza cerca
# de $0{,}01$, la varianza de este ruido, $0{,}1^2$.

# %% [markdown] key="mlp-plot" lang="pt" src="6d9b84f3"
# A curva ajustada acompanha o seno entre os pontos com ruído, e a perda se estabiliza perto de
# $0{,}01$, a variância deste ruído, $0{,}1^2$.

# %% [markdown] key="mlp-plot" lang="ru" src="6d9b84f3"
# Найденная кривая идёт вдоль синусоиды среди зашумлённых точек, а потери выходят на уровень
# около $0{,}01$ — дисперсия этого шума, $0{,}1^2$.

# %% key="mlp-plot-code" tf="random"
grid = np.linspace(-np.pi, np.pi, 200, dtype=np.float32).reshape(-1, 1)
fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.6), layout="constrained")
left.plot(x_curve, y_curve, ".", alpha=0.6, label=t("l06.plot.data"))
left.plot(grid, np.sin(grid), "--", color="0.5", label="sin(x)")
left.plot(grid, model(tf.constant(grid)).numpy(), "-", color="C1", label=t("l06.plot.mlp"))
left.set_xlabel("x")
left.legend()
right.plot(mlp_losses)
right.set_yscale("log")
right.set_xlabel(t("l06.plot.step"))
right.set_ylabel(t("l06.plot.loss"))
right.set_title(t("l06.plot.loss_curve"), fontsize=10)
describe(t("l06.mlp.alt"))
plt.show()

# %% [markdown] key="device" lang="en"
# ## Same code on CPU and GPU
#
# Nothing in `train_model` says where the numbers live. As in TensorFlow, the context decides:
# `tf.config.list_physical_devices("GPU")` lists the GPUs minitape can use, and inside
# `with tf.device("/GPU:0"):` new tensors and variables are created on the first GPU and
# operations run there; `"/CPU:0"` is the processor. <!-- claim: l06.device-context --> minitape reaches NVIDIA GPUs through the
# CuPy library, which is optional: `pip install cupy-cuda12x` installs it, on a machine with
# an NVIDIA GPU and its driver. <!-- claim: l06.cupy --> Without it minitape sees only the CPU, and
# `list_physical_devices("GPU")` returns an empty list. <!-- claim: l06.cupy -->
#
# The cell below picks the GPU if there is one, and the CPU otherwise. Then it runs the same
# code as above: it creates the data and a new model inside the `with` block, so that they live
# on the chosen device, and trains for 100 steps. A tensor's `.device` tells where it
# lives, here the model's prediction; `.numpy()` always brings the values back to the CPU as a
# NumPy array. <!-- claim: l06.numpy-on-cpu -->

# %% [markdown] key="device" lang="es" src="cfce2e9f"
# ## El mismo código en CPU y en GPU
#
# Nada en `train_model` dice dónde viven los números. Como en TensorFlow, lo decide el contexto:
# `tf.config.list_physical_devices("GPU")` enumera las GPU que minitape puede usar, y dentro de
# `with tf.device("/GPU:0"):` los tensores y variables nuevos se crean en la primera GPU y las
# operaciones se ejecutan allí; `"/CPU:0"` es el procesador. <!-- claim: l06.device-context --> minitape llega a las GPU de NVIDIA
# a través de la biblioteca CuPy, que es opcional: `pip install cupy-cuda12x` la instala, en
# una máquina con una GPU de NVIDIA y su controlador. <!-- claim: l06.cupy --> Sin ella, minitape solo ve la CPU y
# `list_physical_devices("GPU")` devuelve una lista vacía. <!-- claim: l06.cupy -->
#
# La celda de abajo elige la GPU si la hay y, si no, la CPU. Después ejecuta el mismo código de
# antes: crea los datos y un modelo nuevo dentro del bloque `with`, para que vivan en el
# dispositivo elegido, y entrena durante 100 pasos. El `.device` de un tensor indica dónde vive,
# aquí el de la predicción del modelo; `.numpy()` siempre trae los valores de vuelta a la CPU como
# un array de NumPy. <!-- claim: l06.numpy-on-cpu -->

# %% [markdown] key="device" lang="pt" src="cfce2e9f"
# ## O mesmo código na CPU e na GPU
#
# Nada em `train_model` diz onde os números ficam. Como no TensorFlow, quem decide é o contexto:
# `tf.config.list_physical_devices("GPU")` lista as GPUs que o minitape pode usar, e dentro de
# `with tf.device("/GPU:0"):` os tensores e variáveis novos são criados na primeira GPU e as
# operações rodam nela; `"/CPU:0"` é o processador. <!-- claim: l06.device-context --> O minitape chega às GPUs da NVIDIA pela
# biblioteca CuPy, que é opcional: `pip install cupy-cuda12x` a instala, em uma máquina com
# GPU da NVIDIA e o driver dela. <!-- claim: l06.cupy --> Sem o CuPy, o minitape só enxerga a CPU e
# `list_physical_devices("GPU")` devolve uma lista vazia. <!-- claim: l06.cupy -->
#
# A célula abaixo escolhe a GPU, se houver uma, e a CPU caso contrário. Depois roda o mesmo
# código de antes: cria os dados e um modelo novo dentro do bloco `with`, para que fiquem no
# dispositivo escolhido, e treina por 100 passos. O `.device` de um tensor diz onde ele está,
# aqui o da previsão do modelo; `.numpy()` sempre traz os valores de volta para a CPU como um
# array do NumPy. <!-- claim: l06.numpy-on-cpu -->

# %% [markdown] key="device" lang="ru" src="cfce2e9f"
# ## Один и тот же код на CPU и GPU
#
# В `train_model` нигде не сказано, где хранятся числа. Как и в TensorFlow, это решает контекст:
# `tf.config.list_physical_devices("GPU")` перечисляет GPU, которые может использовать minitape,
# а внутри `with tf.device("/GPU:0"):` новые тензоры и переменные создаются на первом GPU, и
# операции выполняются там же; `"/CPU:0"` — это центральный процессор. <!-- claim: l06.device-context --> К GPU NVIDIA minitape
# обращается через библиотеку CuPy, которая необязательна: установить её можно командой
# `pip install cupy-cuda12x` на машине с GPU NVIDIA и драйвером для него. <!-- claim: l06.cupy --> Без CuPy minitape
# видит только CPU, и `list_physical_devices("GPU")` возвращает пустой список. <!-- claim: l06.cupy -->
#
# Ячейка ниже выбирает GPU, если он есть, а иначе — CPU. Затем она выполняет тот же код, что и
# выше: создаёт данные и новую модель внутри блока `with`, чтобы они оказались на выбранном
# устройстве, и обучает модель 100 шагов. `.device` тензора показывает, где он находится
# (здесь — предсказания модели); `.numpy()` всегда возвращает значения на CPU в виде массива
# NumPy. <!-- claim: l06.numpy-on-cpu -->

# %% key="device-code" tf="random"
gpus = tf.config.list_physical_devices("GPU")
if gpus:
    device_name = "/GPU:0"
    print(t("l06.device.gpu", name=gpus[0].name))
else:
    device_name = "/CPU:0"
    print(t("l06.device.no_gpu"))

with tf.device(device_name):
    x_device, y_device = tf.constant(x_curve), tf.constant(y_curve)
    tf.keras.utils.set_random_seed(1)
    model_device = MLP(hidden_units=16)
    device_losses = train_model(model_device, x_device, y_device,
                                tf.keras.optimizers.Adam(learning_rate=0.05), steps=100)

print(t("l06.device.where", device=model_device(x_device).device))
print(t("l06.losses", first=f"{device_losses[0]:.4f}", last=f"{device_losses[-1]:.4f}"))
print(np.allclose(device_losses, mlp_losses[:100], rtol=1e-3))

# %% [markdown] key="device-same" lang="en"
# Same seed, same code: the losses are those of the first 100 steps above, on either device (on
# a GPU, up to rounding).
#
# What if you write `with tf.device("/GPU:0"):` on a machine without a usable GPU? minitape
# does what TensorFlow does in eager mode: *soft device placement* (on by default) quietly runs
# the block on the CPU, and only the tensors' `.device` tells you so. <!-- claim: l06.soft-placement --> To get an
# error instead, call `tf.config.set_soft_device_placement(False)`: the first operation placed
# in the block then raises `tf.errors.InvalidArgumentError`, in TensorFlow and in minitape alike
# (entering the block is fine), and minitape's error carries a note, which Python prints with it,
# saying what is missing (CuPy, or a visible NVIDIA GPU) and how to install it. <!-- claim: l06.hard-placement --> Either way, ask `list_physical_devices` first, as
# the cell above does, instead of writing `"/GPU:0"` blindly. The cell below shows both
# behaviours on this machine:

# %% [markdown] key="device-same" lang="es" src="cd1e8003"
# Misma semilla, mismo código: las pérdidas son las de los 100 primeros pasos de antes, en
# cualquiera de los dos dispositivos (en una GPU, salvo redondeo).
#
# ¿Y si escribes `with tf.device("/GPU:0"):` en una máquina sin una GPU utilizable? minitape
# hace lo mismo que TensorFlow en ejecución inmediata (*eager*): la *colocación flexible de dispositivos*
# (*soft device placement*, activada por defecto) ejecuta el bloque en la CPU sin avisar, y solo
# el `.device` de los tensores te lo dice. <!-- claim: l06.soft-placement --> Si prefieres un error, llama a
# `tf.config.set_soft_device_placement(False)`: entonces la primera operación colocada en el
# bloque lanza `tf.errors.InvalidArgumentError`, igual en TensorFlow que en minitape (entrar en el
# bloque no da error), y el error de minitape lleva una nota, que Python muestra junto con él, con
# lo que falta (CuPy o una GPU de NVIDIA visible) y cómo instalarlo. <!-- claim: l06.hard-placement --> En los dos casos, consulta primero
# `list_physical_devices`, como hace la celda de arriba, en lugar de escribir `"/GPU:0"` a
# ciegas. La celda de abajo muestra los dos comportamientos en esta máquina:

# %% [markdown] key="device-same" lang="pt" src="cd1e8003"
# Mesma semente, mesmo código: as perdas são as dos 100 primeiros passos de antes, em qualquer
# um dos dois dispositivos (numa GPU, a menos de arredondamento).
#
# E se você escrever `with tf.device("/GPU:0"):` numa máquina sem uma GPU utilizável? O
# minitape faz o mesmo que o TensorFlow em execução imediata (*eager*): o *posicionamento flexível de
# dispositivos* (*soft device placement*, ligado por padrão) roda o bloco na CPU sem aviso, e
# só o `.device` dos tensores revela isso. <!-- claim: l06.soft-placement --> Para receber um erro, chame
# `tf.config.set_soft_device_placement(False)`: aí a primeira operação colocada no bloco lança
# `tf.errors.InvalidArgumentError`, tanto no TensorFlow quanto no minitape (entrar no bloco não
# dá erro), e o erro do minitape traz uma nota, que o Python mostra junto com ele, dizendo o que
# falta (o CuPy ou uma GPU da NVIDIA visível) e como instalar. <!-- claim: l06.hard-placement --> Nos dois casos, consulte primeiro
# `list_physical_devices`, como faz a célula acima, em vez de escrever `"/GPU:0"` às cegas. A
# célula abaixo mostra os dois comportamentos nesta máquina:

# %% [markdown] key="device-same" lang="ru" src="cd1e8003"
# То же начальное значение генератора случайных чисел (seed), тот же код: потери совпадают с
# потерями первых 100 шагов выше на любом из устройств (на GPU — с точностью до округления).
#
# А что, если написать `with tf.device("/GPU:0"):` на машине без доступного GPU? minitape
# поступает так же, как TensorFlow в режиме немедленного выполнения (eager): *мягкое размещение на устройствах*
# (*soft device placement*, по умолчанию включено) молча выполняет блок на CPU, и узнать об
# этом можно только по `.device` тензоров. <!-- claim: l06.soft-placement --> Чтобы вместо этого получить ошибку,
# вызовите `tf.config.set_soft_device_placement(False)`: тогда первая размещённая в блоке
# операция вызывает `tf.errors.InvalidArgumentError`, причём и в TensorFlow, и в minitape (сам
# вход в блок ошибки не вызывает), а к ошибке minitape приложено примечание, которое Python
# выводит вместе с ней: чего не хватает (CuPy или видимого GPU NVIDIA) и как это установить. <!-- claim: l06.hard-placement --> В обоих случаях сначала спросите
# `list_physical_devices`, как это делает ячейка выше, а не пишите `"/GPU:0"` вслепую. Ячейка
# ниже показывает оба поведения на этой машине:

# %% key="device-same-code"
with tf.device("/GPU:0"):
    probe = tf.constant([1.0, 2.0])
print(probe.device)

tf.config.set_soft_device_placement(False)
try:
    with tf.device("/GPU:0"):
        probe = tf.constant([1.0, 2.0])
    print(probe.device)
except tf.errors.InvalidArgumentError as error:
    print(t("l06.gloss.device"))
    print("InvalidArgumentError:", error)
finally:
    tf.config.set_soft_device_placement(True)

# %% [markdown] key="device-speed" lang="en"
# Do not expect this small model to train faster on a GPU. Each of its operations works on a
# few hundred numbers, far too few to keep thousands of GPU cores busy, and every operation
# has a fixed cost to launch. A GPU pays off with large matrices: batches of thousands of
# examples, layers of thousands of units.

# %% [markdown] key="device-speed" lang="es" src="6980c6c1"
# No esperes que este modelo pequeño entrene más rápido en una GPU. Cada una de sus operaciones
# trabaja con unos pocos cientos de números, demasiado pocos para mantener ocupados los miles de
# núcleos de una GPU, y cada operación tiene un coste fijo de lanzamiento. Una GPU compensa con
# matrices grandes: lotes de miles de ejemplos, capas de miles de unidades.

# %% [markdown] key="device-speed" lang="pt" src="6980c6c1"
# Não espere que este modelo pequeno treine mais rápido numa GPU. Cada uma das suas operações
# trabalha com algumas centenas de números, pouquíssimos para manter ocupados os milhares de
# núcleos de uma GPU, e cada operação tem um custo fixo para ser disparada. Uma GPU compensa com
# matrizes grandes: lotes de milhares de exemplos, camadas de milhares de unidades.

# %% [markdown] key="device-speed" lang="ru" src="6980c6c1"
# Не ждите, что эта маленькая модель будет обучаться на GPU быстрее. Каждая её операция работает
# с несколькими сотнями чисел — слишком мало, чтобы загрузить тысячи ядер GPU, — а у каждой
# операции есть фиксированная стоимость запуска. GPU окупается на больших матрицах: батчах из
# тысяч примеров, слоях из тысяч нейронов.

# %% [markdown] key="exercises" lang="en"
# ## Exercises
#
# Each exercise asks you to complete a function: replace `raise NotImplementedError()` with
# your code and run the cell, then run the cell below it. `check(...)` tries your function at
# once on fixed data and shows what you returned next to what was expected. When your work is
# graded, hidden checks also call it on random data and compare its answer with a reference
# solution's. Both start from the same values and take the same steps, so a correct answer
# matches to rounding. Your answers are compared as in lesson 1: by their value, whatever holds it,
# within float32's tolerance.

# %% [markdown] key="exercises" lang="es" src="db827108"
# ## Ejercicios
#
# En cada ejercicio tienes que completar una función: sustituye `raise NotImplementedError()`
# por tu código y ejecuta la celda; después, ejecuta la celda de abajo. `check(...)` prueba tu
# función en el acto con datos fijos y te muestra lo que devolviste junto a lo esperado. Al
# calificar tu trabajo, unas comprobaciones ocultas la llaman además con datos aleatorios y
# comparan su respuesta con la de una solución de referencia. Las dos parten de los mismos
# valores y dan los mismos pasos, así que una respuesta correcta coincide salvo redondeo. Tus respuestas se comparan como en la lección 1: por su valor, sea cual sea el
# contenedor, con la tolerancia de float32.

# %% [markdown] key="exercises" lang="pt" src="db827108"
# ## Exercícios
#
# Em cada exercício você completa uma função: substitua `raise NotImplementedError()` pelo seu
# código e execute a célula; depois, execute a célula logo abaixo. `check(...)` testa a sua
# função na hora com dados fixos e mostra o que você devolveu ao lado do esperado. Na correção,
# verificações ocultas também a chamam com dados aleatórios e comparam a resposta dela com a de
# uma solução de referência. As duas partem dos mesmos valores e dão os mesmos passos; por isso,
# uma resposta correta coincide a menos de arredondamento. As suas respostas são comparadas como na lição 1: pelo valor, seja qual for o
# recipiente, com a tolerância do float32.

# %% [markdown] key="exercises" lang="ru" src="db827108"
# ## Упражнения
#
# В каждом упражнении нужно дописать функцию: замените `raise NotImplementedError()` своим кодом
# и выполните ячейку, а затем ячейку под ней. `check(...)` сразу проверяет вашу функцию на
# фиксированных данных и показывает рядом то, что вы вернули, и то, что ожидалось. При
# оценивании скрытые проверки вызывают её ещё и на случайных данных и сравнивают ответ с ответом
# эталонного решения. Оба решения начинают с одних и тех же значений и делают одни и те же шаги,
# поэтому правильный ответ совпадает с эталоном с точностью до округления. Ответы сравниваются так же, как в уроке 1: по значению, в чём бы оно ни было, с
# допуском float32.

# %% [markdown] key="ex1" lang="en"
# ### Exercise 1 · One step of gradient descent (2 points)
#
# Write `gradient_descent_step(w, b, x, y, lr)` for a linear model with several inputs: `x`
# has shape (k, n) (k examples with n features each), `y` has shape (k, 1), and the Variables
# `w` and `b` have shapes (n, 1) and (1,). With the prediction $\hat y = x w + b$
# (`x @ w + b`) and the loss $L = \operatorname{mean}\big((\hat y - y)^2\big)$, take **one**
# step of gradient descent with learning rate `lr` (a Python float): update `w` and `b` in
# place with `assign_sub`, and return the list `[w, b]`.

# %% [markdown] key="ex1" lang="es" src="a62f8ba8"
# ### Ejercicio 1 · Un paso de descenso del gradiente (2 puntos)
#
# Escribe `gradient_descent_step(w, b, x, y, lr)` para un modelo lineal con varias entradas: `x`
# tiene forma (k, n) (k ejemplos de n características cada uno), `y` tiene forma (k, 1), y las
# variables `w` y `b` tienen formas (n, 1) y (1,). Con la predicción $\hat y = x w + b$
# (`x @ w + b`) y la pérdida $L = \operatorname{mean}\big((\hat y - y)^2\big)$, da **un** paso
# de descenso del gradiente con tasa de aprendizaje `lr` (un `float` de Python): actualiza `w` y
# `b` con `assign_sub`, sin crear variables nuevas, y devuelve la lista `[w, b]`.

# %% [markdown] key="ex1" lang="pt" src="a62f8ba8"
# ### Exercício 1 · Um passo de descida do gradiente (2 pontos)
#
# Escreva `gradient_descent_step(w, b, x, y, lr)` para um modelo linear com várias entradas: `x`
# tem formato (k, n) (k exemplos com n atributos cada), `y` tem formato (k, 1), e as variáveis
# `w` e `b` têm formatos (n, 1) e (1,). Com a previsão $\hat y = x w + b$ (`x @ w + b`) e a
# perda $L = \operatorname{mean}\big((\hat y - y)^2\big)$, dê **um** passo de descida do
# gradiente com taxa de aprendizado `lr` (um `float` do Python): atualize `w` e `b` com
# `assign_sub`, sem criar variáveis novas, e devolva a lista `[w, b]`.

# %% [markdown] key="ex1" lang="ru" src="a62f8ba8"
# ### Упражнение 1 · Один шаг градиентного спуска (2 балла)
#
# Напишите функцию `gradient_descent_step(w, b, x, y, lr)` для линейной модели с несколькими
# входами: `x` имеет форму (k, n) (k примеров по n признаков), `y` — форму (k, 1), а переменные
# `w` и `b` — формы (n, 1) и (1,). Для предсказания $\hat y = x w + b$ (`x @ w + b`) и функции
# потерь $L = \operatorname{mean}\big((\hat y - y)^2\big)$ сделайте **один** шаг градиентного
# спуска со скоростью обучения `lr` (`float` в Python): обновите `w` и `b` на месте с помощью
# `assign_sub` и верните список `[w, b]`.

# %% nbgrader="solution" grade_id="l06_ex1_solution"
def gradient_descent_step(w, b, x, y, lr):
    ### BEGIN SOLUTION
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((x @ w + b - y) ** 2)
    dw, db = tape.gradient(loss, [w, b])
    w.assign_sub(lr * dw)
    b.assign_sub(lr * db)
    return [w, b]
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l06_ex1" points=2
from grader import check
check("l06_ex1")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l06_ex1")
### END HIDDEN TESTS

# %% [markdown] key="ex2" lang="en"
# ### Exercise 2 · A training loop and its loss curve (3 points)
#
# Write `train_linear(w, b, x, y, lr, steps)`: the same model, loss and arguments as in
# Exercise 1, plus a number of steps `steps`. Take `steps` steps of gradient descent, each with
# a new tape, and return the loss curve: `tf.stack` of the `steps` losses, each computed
# before its step's update (a tensor of shape `(steps,)`). With the data of the first check
# (6 points near $y = 2x - 1$: $x = [-1, -0.5, 0, 0.5, 1, 1.5]$ and
# $y = [-3.1, -1.9, -1.2, 0.1, 0.9, 2.1]$, as columns; starting from $w = b = 0$, with $\eta = 0.1$ and 60 steps), the
# loss falls from $3.315$ to less than $0.014$.

# %% [markdown] key="ex2" lang="es" src="82f6e791"
# ### Ejercicio 2 · Un bucle de entrenamiento y su curva de pérdida (3 puntos)
#
# Escribe `train_linear(w, b, x, y, lr, steps)`: el mismo modelo, la misma pérdida y los mismos
# argumentos que en el ejercicio 1, más un número de pasos `steps`. Da `steps` pasos de descenso
# del gradiente, cada uno con una cinta nueva, y devuelve la curva de pérdida: `tf.stack` de las
# `steps` pérdidas, cada una calculada antes de la actualización de su paso (un tensor de forma
# `(steps,)`). Con los datos de la primera comprobación (6 puntos cerca de $y = 2x - 1$:
# $x = [-1; -0{,}5; 0; 0{,}5; 1; 1{,}5]$ e $y = [-3{,}1; -1{,}9; -1{,}2; 0{,}1; 0{,}9; 2{,}1]$, como
# columnas; empezando en $w = b = 0$, con $\eta = 0{,}1$ y 60 pasos), la pérdida baja de $3{,}315$ a menos de
# $0{,}014$.

# %% [markdown] key="ex2" lang="pt" src="82f6e791"
# ### Exercício 2 · Um laço de treinamento e sua curva de perda (3 pontos)
#
# Escreva `train_linear(w, b, x, y, lr, steps)`: o mesmo modelo, a mesma perda e os mesmos
# argumentos do exercício 1, mais um número de passos `steps`. Dê `steps` passos de descida do
# gradiente, cada um com uma fita nova, e devolva a curva de perda: `tf.stack` das `steps`
# perdas, cada uma calculada antes da atualização do seu passo (um tensor de formato
# `(steps,)`). Com os dados da primeira verificação (6 pontos perto de $y = 2x - 1$:
# $x = [-1; -0{,}5; 0; 0{,}5; 1; 1{,}5]$ e $y = [-3{,}1; -1{,}9; -1{,}2; 0{,}1; 0{,}9; 2{,}1]$, como
# colunas; começando em $w = b = 0$, com $\eta = 0{,}1$ e 60 passos), a perda cai de $3{,}315$ para menos de $0{,}014$.

# %% [markdown] key="ex2" lang="ru" src="82f6e791"
# ### Упражнение 2 · Цикл обучения и его кривая потерь (3 балла)
#
# Напишите функцию `train_linear(w, b, x, y, lr, steps)`: та же модель, та же функция потерь и
# те же аргументы, что в упражнении 1, плюс число шагов `steps`. Сделайте `steps` шагов
# градиентного спуска, каждый с новой лентой, и верните кривую потерь: `tf.stack` из `steps`
# значений потерь, каждое из которых вычислено до обновления на своём шаге (тензор формы
# `(steps,)`). На данных первой проверки (6 точек около $y = 2x - 1$:
# $x = [-1; -0{,}5; 0; 0{,}5; 1; 1{,}5]$ и $y = [-3{,}1; -1{,}9; -1{,}2; 0{,}1; 0{,}9; 2{,}1]$ в виде
# столбцов; начиная с $w = b = 0$,
# $\eta = 0{,}1$, 60 шагов) потери падают с $3{,}315$ до значения меньше $0{,}014$.

# %% nbgrader="solution" grade_id="l06_ex2_solution"
def train_linear(w, b, x, y, lr, steps):
    ### BEGIN SOLUTION
    losses = []
    for step in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((x @ w + b - y) ** 2)
        dw, db = tape.gradient(loss, [w, b])
        w.assign_sub(lr * dw)
        b.assign_sub(lr * db)
        losses.append(loss)
    return tf.stack(losses)
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l06_ex2" points=3
from grader import check
check("l06_ex2")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l06_ex2")
### END HIDDEN TESTS

# %% [markdown] key="ex3" lang="en"
# ### Exercise 3 · Clipping inside a training loop (2 points)
#
# Far from the minimum, or with a few outliers in the data, a gradient can be huge, and one step
# $-\eta\, g$ throws the parameters far away. *Clipping* caps the step: `tf.clip_by_norm(g, c)`
# returns $g$ unchanged when its norm $\lVert g \rVert$ is at most $c$, and
# $g \cdot \frac{c}{\lVert g \rVert}$ (same direction, norm $c$) otherwise. In lesson 4 you
# clipped inside the backward pass of one function; here you clip in the training loop, after
# `tape.gradient`, which is where it is usually done.
#
# Write `clipped_descent(w, b, x, y, lr, steps, clip_norm)`: the loop of exercise 2 (same model,
# same loss, a new tape at every step, updates with `assign_sub`), but clip each of the two
# gradients on its own to norm `clip_norm` before its update. Return `tf.stack` of the `steps`
# losses, each computed before its step's update. The data are steep, so the first gradients
# are well above `clip_norm`: the parameters move by steps of equal length, so the loss falls
# slowly and steadily, where the unclipped loop would take a few large steps.

# %% [markdown] key="ex3" lang="es" src="fbf84755"
# ### Ejercicio 3 · Recortar gradientes dentro de un bucle de entrenamiento (2 puntos)
#
# Lejos del mínimo, o con unos pocos valores atípicos en los datos, un gradiente puede ser
# enorme, y un solo paso $-\eta\, g$ lanza los parámetros muy lejos. *Recortar* el gradiente
# limita el paso: `tf.clip_by_norm(g, c)` devuelve $g$ sin cambios cuando su norma
# $\lVert g \rVert$ es como mucho $c$, y $g \cdot \frac{c}{\lVert g \rVert}$ (la misma
# dirección, norma $c$) en caso contrario. En la lección 4 viste cómo recortar dentro de la pasada
# hacia atrás de una función; aquí recortas en el bucle de entrenamiento, después de `tape.gradient`,
# que es donde se suele hacer.
#
# Escribe `clipped_descent(w, b, x, y, lr, steps, clip_norm)`: el bucle del ejercicio 2 (el mismo
# modelo, la misma pérdida, una cinta nueva en cada paso, actualizaciones con `assign_sub`),
# pero recorta cada uno de los dos gradientes por separado a la norma `clip_norm` antes de su
# actualización. Devuelve `tf.stack` de las `steps` pérdidas, cada una calculada antes de la
# actualización de su paso. Los datos siguen una recta muy empinada, así que los primeros gradientes
# superan con creces `clip_norm`: los parámetros se mueven con pasos de la misma longitud, así
# que la pérdida baja despacio y de forma regular, donde el bucle sin recortar daría unos pocos
# pasos grandes.

# %% [markdown] key="ex3" lang="pt" src="fbf84755"
# ### Exercício 3 · Recortar gradientes dentro de um laço de treinamento (2 pontos)
#
# Longe do mínimo, ou com alguns valores atípicos nos dados, um gradiente pode ser enorme, e um
# único passo $-\eta\, g$ joga os parâmetros para muito longe. *Recortar* o gradiente limita o
# passo: `tf.clip_by_norm(g, c)` devolve $g$ sem mudança quando a norma $\lVert g \rVert$ é no
# máximo $c$, e $g \cdot \frac{c}{\lVert g \rVert}$ (a mesma direção, norma $c$) caso
# contrário. Na lição 4 você viu como recortar dentro da passagem para trás de uma função; aqui você
# recorta no laço de treinamento, depois de `tape.gradient`, que é onde isso costuma ser feito.
#
# Escreva `clipped_descent(w, b, x, y, lr, steps, clip_norm)`: o laço do exercício 2 (o mesmo
# modelo, a mesma perda, uma fita nova a cada passo, atualizações com `assign_sub`), mas recorte
# cada um dos dois gradientes separadamente para a norma `clip_norm` antes da atualização.
# Devolva `tf.stack` das `steps` perdas, cada uma calculada antes da atualização do seu passo.
# Os dados são bem inclinados, então os primeiros gradientes ficam muito acima de `clip_norm`:
# os parâmetros andam com passos do mesmo comprimento, então a perda cai devagar e de forma
# regular, onde o laço sem recorte daria poucos passos grandes.

# %% [markdown] key="ex3" lang="ru" src="fbf84755"
# ### Упражнение 3 · Обрезка градиентов внутри цикла обучения (2 балла)
#
# Вдали от минимума или при нескольких выбросах в данных градиент может быть огромным, и один
# шаг $-\eta\, g$ отбрасывает параметры далеко в сторону. *Обрезка* (*clipping*) градиента
# ограничивает шаг: `tf.clip_by_norm(g, c)` возвращает $g$ без изменений, если его норма
# $\lVert g \rVert$ не больше $c$, и $g \cdot \frac{c}{\lVert g \rVert}$ (то же
# направление, норма $c$) в противном случае. В уроке 4 вы видели, как обрезать градиент внутри
# обратного прохода одной функции; здесь вы делаете это в цикле обучения, после
# `tape.gradient`, — обычно его обрезают именно там.
#
# Напишите функцию `clipped_descent(w, b, x, y, lr, steps, clip_norm)`: цикл из упражнения 2
# (та же модель, та же функция потерь, новая лента на каждом шаге, обновления через
# `assign_sub`), но перед обновлением обрежьте каждый из двух градиентов по отдельности до
# нормы `clip_norm`. Верните `tf.stack` из `steps` значений потерь, каждое из
# которых вычислено до обновления на своём шаге. Точки лежат вдоль очень крутой прямой, поэтому
# первые градиенты намного больше `clip_norm`: параметры сдвигаются шагами одной длины, и потери
# падают медленно и равномерно, там, где цикл без обрезки сделал бы несколько больших шагов.

# %% nbgrader="solution" grade_id="l06_ex3_solution"
def clipped_descent(w, b, x, y, lr, steps, clip_norm):
    ### BEGIN SOLUTION
    losses = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((tf.matmul(x, w) + b - y) ** 2)
        dw, db = tape.gradient(loss, [w, b])
        w.assign_sub(lr * tf.clip_by_norm(dw, clip_norm))
        b.assign_sub(lr * tf.clip_by_norm(db, clip_norm))
        losses.append(loss)
    return tf.stack(losses)
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l06_ex3" points=2
from grader import check
check("l06_ex3")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l06_ex3")
### END HIDDEN TESTS

# %% [markdown] key="ex4" lang="en"
# ### Exercise 4 · Mini-batches and an optimizer (3 points)
#
# With millions of examples, computing the loss on all of them at every step would be far too
# slow. Each step uses a small slice of the data instead, a *mini-batch*: its gradient is a
# noisy estimate of the full gradient, and that noise is the "stochastic" of stochastic
# gradient descent. One pass over all the mini-batches is an *epoch*.
#
# Write `train_minibatches(model, optimizer, x, y, batch_size, epochs)`. `model` is an MLP like
# this lesson's, built as a `tf.keras.Sequential` of a hidden `Dense` layer with tanh and an
# output `Dense` layer, <!-- claim: l06.ex4-model --> `optimizer` a
# Keras optimizer that has already been created (`Adam` or
# `SGD`), and `x` and `y` are tensors of shape (k, 1). <!-- claim: l06.ex4-model --> In each of the `epochs` epochs, go
# through the data in order, in mini-batches of `batch_size` rows:
# `x[start:start + batch_size]` with `start = 0, batch_size, 2 * batch_size, …` (the last one
# may be shorter), and the same rows of `y`. For each mini-batch, compute its loss
# $\operatorname{mean}\big((\text{model}(x_{\text{batch}}) - y_{\text{batch}})^2\big)$ with a
# tape and take one step with `optimizer.apply_gradients`. Return `tf.stack` of all the
# mini-batch losses in order, each computed before its update.
#
# Real training shuffles the examples at every epoch; here we do not, so that your answer can
# be compared exactly with the reference.

# %% [markdown] key="ex4" lang="es" src="f6e39277"
# ### Ejercicio 4 · Minilotes y un optimizador (3 puntos)
#
# Con millones de ejemplos, calcular la pérdida sobre todos ellos en cada paso sería demasiado
# lento. En su lugar, cada paso usa una pequeña porción de los datos, un *minilote*
# (*mini-batch*): su gradiente es una estimación con ruido del gradiente completo, y ese ruido
# es lo «estocástico» del descenso del gradiente estocástico. Una pasada por todos los minilotes
# es una *época* (*epoch*).
#
# Escribe `train_minibatches(model, optimizer, x, y, batch_size, epochs)`. `model` es un MLP
# como el de esta lección, construido como un `tf.keras.Sequential` de una capa `Dense` oculta
# con tanh y una capa `Dense` de salida, <!-- claim: l06.ex4-model --> `optimizer` un optimizador de Keras ya creado (`Adam` o `SGD`), y `x`
# e `y` son tensores de forma (k, 1). <!-- claim: l06.ex4-model --> En cada una de las `epochs` épocas, recorre los datos en
# orden, en minilotes de `batch_size` filas: `x[start:start + batch_size]` con
# `start = 0, batch_size, 2 * batch_size, …` (el último puede ser más corto), y las mismas filas
# de `y`. Para cada minilote, calcula su pérdida
# $\operatorname{mean}\big((\text{model}(x_{\text{batch}}) - y_{\text{batch}})^2\big)$ con una
# cinta y da un paso con `optimizer.apply_gradients`. Devuelve `tf.stack` de todas las pérdidas
# de los minilotes, en orden, cada una calculada antes de su actualización.
#
# En un entrenamiento real se barajan los ejemplos en cada época; aquí no, para que tu respuesta
# pueda compararse exactamente con la de referencia.

# %% [markdown] key="ex4" lang="pt" src="f6e39277"
# ### Exercício 4 · Minilotes e um otimizador (3 pontos)
#
# Com milhões de exemplos, calcular a perda sobre todos eles a cada passo seria lento demais. Em
# vez disso, cada passo usa uma pequena fatia dos dados, um *minilote* (*mini-batch*): o
# gradiente dele é uma estimativa com ruído do gradiente completo, e esse ruído é o
# “estocástica” da descida do gradiente estocástica. Uma passagem por todos os minilotes é uma
# *época* (*epoch*).
#
# Escreva `train_minibatches(model, optimizer, x, y, batch_size, epochs)`. `model` é um MLP como
# o desta lição, construído como um `tf.keras.Sequential` de uma camada `Dense` oculta com tanh
# e uma camada `Dense` de saída, <!-- claim: l06.ex4-model -->
# `optimizer` um otimizador do Keras já criado (`Adam` ou `SGD`), e `x` e `y`
# são tensores de formato (k, 1). <!-- claim: l06.ex4-model --> Em cada uma das `epochs` épocas, percorra os dados em ordem,
# em minilotes de `batch_size` linhas: `x[start:start + batch_size]` com
# `start = 0, batch_size, 2 * batch_size, …` (o último pode ser menor), e as mesmas linhas de
# `y`. Para cada minilote, calcule a perda dele,
# $\operatorname{mean}\big((\text{model}(x_{\text{batch}}) - y_{\text{batch}})^2\big)$, com uma
# fita e dê um passo com `optimizer.apply_gradients`. Devolva `tf.stack` de todas as perdas dos
# minilotes, em ordem, cada uma calculada antes da sua atualização.
#
# Num treinamento de verdade, os exemplos são embaralhados a cada época; aqui não, para que a sua
# resposta possa ser comparada exatamente com a de referência.

# %% [markdown] key="ex4" lang="ru" src="f6e39277"
# ### Упражнение 4 · Мини-батчи и оптимизатор (3 балла)
#
# Когда примеров миллионы, вычислять потери по всем на каждом шаге слишком долго. Вместо этого
# каждый шаг использует небольшую часть данных — *мини-батч* (*mini-batch*): его градиент —
# зашумлённая оценка полного градиента, и именно этот шум делает стохастический градиентный
# спуск «стохастическим». Один проход по всем мини-батчам называется *эпохой* (*epoch*).
#
# Напишите функцию `train_minibatches(model, optimizer, x, y, batch_size, epochs)`. `model` —
# MLP, как в этом уроке, собранный как `tf.keras.Sequential` из скрытого слоя `Dense` с tanh и
# выходного слоя `Dense`, <!-- claim: l06.ex4-model --> `optimizer` — уже созданный оптимизатор Keras (`Adam` или `SGD`), а `x`
# и `y` — тензоры формы (k, 1). <!-- claim: l06.ex4-model --> В каждой из `epochs` эпох проходите данные по порядку
# мини-батчами по `batch_size` строк: `x[start:start + batch_size]` при
# `start = 0, batch_size, 2 * batch_size, …` (последний может оказаться короче) и те же строки
# `y`. Для каждого мини-батча вычислите его потери
# $\operatorname{mean}\big((\text{model}(x_{\text{batch}}) - y_{\text{batch}})^2\big)$ с помощью
# ленты и сделайте один шаг с `optimizer.apply_gradients`. Верните `tf.stack` из потерь всех
# мини-батчей по порядку; каждое значение должно быть вычислено до своего обновления.
#
# При настоящем обучении примеры перемешивают в каждой эпохе; здесь мы этого не делаем, чтобы
# ваш ответ можно было точно сравнить с эталонным.

# %% nbgrader="solution" grade_id="l06_ex4_solution"
def train_minibatches(model, optimizer, x, y, batch_size, epochs):
    ### BEGIN SOLUTION
    losses = []
    for epoch in range(epochs):
        for start in range(0, x.shape[0], batch_size):
            x_batch = x[start:start + batch_size]
            y_batch = y[start:start + batch_size]
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((model(x_batch) - y_batch) ** 2)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            losses.append(loss)
    return tf.stack(losses)
    ### END SOLUTION

# %% nbgrader="tests" grade_id="l06_ex4" points=3
from grader import check
check("l06_ex4")
### BEGIN HIDDEN TESTS
from grader import grade
grade("l06_ex4")
### END HIDDEN TESTS

# %% [markdown] key="summary" lang="en"
# ## Summary
#
# - One step of gradient descent is $v \leftarrow v - \eta\, \partial L / \partial v$, written
#   `v.assign_sub(lr * g)`. `v = v - lr * g` replaces the Variable by a Tensor, and the next
#   gradient is `None`.
# - A training loop takes a new tape at every step: loss, `tape.gradient`, update. Keep the
#   losses and plot the loss curve, on a logarithmic scale. <!-- claim: l06.loss-curve -->
# - A learning rate that is too small makes training slow; one that is too large makes it
#   diverge.
# - `optimizer.apply_gradients(zip(grads, variables))` does the update, with
#   `tf.keras.optimizers.SGD` or `Adam`. Create the optimizer once: it keeps state between
#   steps.
# - A `tf.keras.Model` made of `Dense` layers collects their variables in
#   `trainable_variables`, and the same loop trains it. <!-- claim: l06.model-tracks-layers -->
# - `with tf.device("/GPU:0"):` runs the same code on a GPU (CuPy, `pip install
#   cupy-cuda12x`); check `tf.config.list_physical_devices("GPU")` first.
#
# Next lesson: you will build your own tape, and check it against `tf.GradientTape`.

# %% [markdown] key="summary" lang="es" src="dd18b6c3"
# ## Resumen
#
# - Un paso de descenso del gradiente es $v \leftarrow v - \eta\, \partial L / \partial v$, y se
#   escribe `v.assign_sub(lr * g)`. `v = v - lr * g` sustituye la variable por un tensor, y el
#   siguiente gradiente es `None`.
# - Un bucle de entrenamiento usa una cinta nueva en cada paso: pérdida, `tape.gradient`,
#   actualización. Guarda las pérdidas y dibuja la curva de pérdida, en escala logarítmica. <!-- claim: l06.loss-curve -->
# - Una tasa de aprendizaje demasiado pequeña hace lento el entrenamiento; una demasiado grande
#   lo hace divergir.
# - `optimizer.apply_gradients(zip(grads, variables))` hace la actualización, con
#   `tf.keras.optimizers.SGD` o `Adam`. Crea el optimizador una sola vez: guarda estado entre
#   pasos.
# - Un `tf.keras.Model` formado por capas `Dense` reúne sus variables en
#   `trainable_variables`, y el mismo bucle lo entrena. <!-- claim: l06.model-tracks-layers -->
# - `with tf.device("/GPU:0"):` ejecuta el mismo código en una GPU (CuPy,
#   `pip install cupy-cuda12x`); consulta antes `tf.config.list_physical_devices("GPU")`.
#
# En la próxima lección: construirás tu propia cinta y la compararás con `tf.GradientTape`.

# %% [markdown] key="summary" lang="pt" src="dd18b6c3"
# ## Resumo
#
# - Um passo de descida do gradiente é $v \leftarrow v - \eta\, \partial L / \partial v$,
#   escrito `v.assign_sub(lr * g)`. `v = v - lr * g` troca a variável por um tensor, e o
#   gradiente seguinte é `None`.
# - Um laço de treinamento usa uma fita nova a cada passo: perda, `tape.gradient`, atualização.
#   Guarde as perdas e desenhe a curva de perda, em escala logarítmica. <!-- claim: l06.loss-curve -->
# - Uma taxa de aprendizado pequena demais deixa o treinamento lento; uma grande demais o faz
#   divergir.
# - `optimizer.apply_gradients(zip(grads, variables))` faz a atualização, com
#   `tf.keras.optimizers.SGD` ou `Adam`. Crie o otimizador uma única vez: ele guarda estado
#   entre os passos.
# - Um `tf.keras.Model` formado por camadas `Dense` reúne as variáveis delas em
#   `trainable_variables`, e o mesmo laço o treina. <!-- claim: l06.model-tracks-layers -->
# - `with tf.device("/GPU:0"):` roda o mesmo código numa GPU (CuPy,
#   `pip install cupy-cuda12x`); consulte antes `tf.config.list_physical_devices("GPU")`.
#
# Na próxima lição: você vai construir a sua própria fita e compará-la com a `tf.GradientTape`.

# %% [markdown] key="summary" lang="ru" src="dd18b6c3"
# ## Итоги
#
# - Один шаг градиентного спуска — это $v \leftarrow v - \eta\, \partial L / \partial v$, в коде
#   `v.assign_sub(lr * g)`. `v = v - lr * g` заменяет переменную тензором, и следующий градиент
#   равен `None`.
# - Цикл обучения на каждом шаге берёт новую ленту: потери, `tape.gradient`, обновление.
#   Сохраняйте потери и стройте кривую потерь в логарифмическом масштабе. <!-- claim: l06.loss-curve -->
# - Слишком маленькая скорость обучения замедляет обучение, слишком большая приводит к
#   расхождению.
# - Обновление выполняет `optimizer.apply_gradients(zip(grads, variables))` с
#   `tf.keras.optimizers.SGD` или `Adam`. Создавайте оптимизатор один раз: между шагами он
#   хранит состояние.
# - `tf.keras.Model` из слоёв `Dense` собирает их переменные в `trainable_variables`, и тот же
#   цикл его обучает. <!-- claim: l06.model-tracks-layers -->
# - `with tf.device("/GPU:0"):` выполняет тот же код на GPU (CuPy,
#   `pip install cupy-cuda12x`); сначала проверьте `tf.config.list_physical_devices("GPU")`.
#
# В следующем уроке вы построите собственную ленту и сравните её с `tf.GradientTape`.

# %% [markdown] key="reflect" lang="en" questions=true
# 1. The learning rate that trains fastest is often just below the one that diverges. How would
#    you look for a good learning rate on a new problem without trying hundreds of values?
# 2. Adam keeps state between steps, which is why the optimizer is created once. What would go
#    wrong, without any error message, if you created a new one at every step?
# 3. Without a usable GPU, `with tf.device("/GPU:0"):` quietly runs on the CPU, in minitape as
#    in TensorFlow, <!-- claim: l06.soft-placement --> unless you call `tf.config.set_soft_device_placement(False)` to get an error.
#    Which behaviour would you want in a course, in a research script, and in a service that
#    answers users?

# %% [markdown] key="reflect" lang="es" src="5a26926b"
# 1. La tasa de aprendizaje que entrena más rápido suele estar justo por debajo de la que diverge.
#    ¿Cómo buscarías una buena tasa de aprendizaje para un problema nuevo sin probar cientos de
#    valores?
# 2. Adam guarda un estado entre pasos; por eso el optimizador se crea una sola vez. ¿Qué saldría
#    mal, sin ningún mensaje de error, si crearas uno nuevo en cada paso?
# 3. Sin una GPU utilizable, `with tf.device("/GPU:0"):` se ejecuta en la CPU sin avisar, tanto
#    en minitape como en TensorFlow, <!-- claim: l06.soft-placement --> salvo que llames a
#    `tf.config.set_soft_device_placement(False)` para recibir un error. ¿Qué comportamiento
#    querrías en un curso, en un script de investigación y en un servicio que atiende a
#    usuarios?

# %% [markdown] key="reflect" lang="pt" src="5a26926b"
# 1. A taxa de aprendizado que treina mais rápido costuma ficar logo abaixo da que diverge. Como
#    você procuraria uma boa taxa de aprendizado para um problema novo sem testar centenas de
#    valores?
# 2. O Adam guarda um estado entre os passos, e por isso o otimizador é criado uma vez só. O que
#    daria errado, sem nenhuma mensagem de erro, se você criasse um novo a cada passo?
# 3. Sem uma GPU utilizável, `with tf.device("/GPU:0"):` roda na CPU sem avisar, tanto no
#    minitape quanto no TensorFlow, <!-- claim: l06.soft-placement --> a menos que você chame
#    `tf.config.set_soft_device_placement(False)` para receber um erro. Que comportamento você
#    gostaria de ter num curso, num script de pesquisa e num serviço que atende usuários?

# %% [markdown] key="reflect" lang="ru" src="5a26926b"
# 1. Скорость обучения, при которой модель учится быстрее всего, часто лишь немного меньше той,
#    при которой обучение расходится. Как бы вы искали хорошую скорость обучения для новой задачи,
#    не перебирая сотни значений?
# 2. Adam хранит состояние между шагами, поэтому оптимизатор создают один раз. Что пошло бы не
#    так — без всякого сообщения об ошибке, — если бы вы создавали новый оптимизатор на каждом
#    шаге?
# 3. Без доступного GPU блок `with tf.device("/GPU:0"):` молча выполняется на CPU — и в
#    minitape, и в TensorFlow, — <!-- claim: l06.soft-placement --> если только не вызвать
#    `tf.config.set_soft_device_placement(False)`, чтобы получать ошибку. Какое поведение вы бы
#    хотели видеть в учебном курсе, в исследовательском скрипте и в сервисе, который отвечает
#    пользователям?
