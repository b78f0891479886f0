"""The texts of :mod:`minitape.debugging`, in every language: :func:`why_none`'s stable reason
codes and messages, and what :func:`draw` and the stepper write (header, legend, notes, buttons,
the drawing's text alternative).

One catalog in the course's one shape (``course_lang.Catalog``: key-major ``{key: {lang: text}}``,
a translator sees the English beside their own; plural keys end in ``.plural`` and hold their
forms separated by ``|``, Russian three), read with the course's one ``t`` / ``tn``
(``docs/languages.md``).  Keys: ``why_none.<template>``, ``why_none.noun.<noun>``,
``draw.<text>``, ``draw.desc.<text>``.
"""
from __future__ import annotations

from course_lang import LANGS, Catalog

REASONS = (
    "has_gradient",        # not None: the tape watched the source and connects it to the target
    "not_watched",         # a Tensor never watched (or a Variable under watch_accessed_variables=False)
    "not_trainable",       # a Variable created with trainable=False
    "integer",             # the source has an integer (or bool) dtype
    "integer_target",      # the target has an integer dtype: nothing to differentiate
    "variable_replaced",   # x = x + 1: a plain Tensor computed outside the tape from a Variable
    "numpy",               # a value on the path left minitape (NumPy call, .numpy(), float())
    "assign",              # the path went through a Variable's assign/assign_add/assign_sub
    "integer_cast",        # the path was cast to an integer dtype (tf.cast(x, tf.int32))
    "not_differentiable",  # the path went through stop_gradient, a comparison, round, argmax...
    "unconnected",         # the target was computed without the source
)

# why_none's templates: {s} and {t} are the names of the source and target in code style with a
# leading space (" `x`"), or nothing when no name is known; {Src}/{src}/{Tgt}/{tgt} are the nouns
# (why_none.noun.*).
MESSAGES: dict[str, dict[str, str]] = {
    # ----- why_none: the nouns its templates use ({Src}, {src}, {Tgt}, {tgt}) -----------------
    "why_none.noun.src": {
        "en": "the source",
        "es": "la fuente",
        "pt": "a fonte",
        "ru": "источник",
    },
    "why_none.noun.Src": {
        "en": "The source",
        "es": "La fuente",
        "pt": "A fonte",
        "ru": "Источник",
    },
    "why_none.noun.tgt": {
        "en": "the target",
        "es": "el objetivo",
        "pt": "o alvo",
        "ru": "цель",
    },
    "why_none.noun.Tgt": {
        "en": "The target",
        "es": "El objetivo",
        "pt": "O alvo",
        "ru": "Цель",
    },
    # ----- why_none: one template per reason (and the parts of the NumPy one) -------------------
    "why_none.has_gradient": {
        "en": "There is no None to explain here: the tape watched {src}{s} and recorded the "
              "operations that lead from it to {tgt}{t}, so `tape.gradient` returns a real "
              "gradient for it.",
        "es": "Aquí no hay ningún None que explicar: la cinta observó {src}{s} y grabó las "
              "operaciones que llevan desde ella hasta {tgt}{t}, así que `tape.gradient` devuelve "
              "un gradiente de verdad.",
        "pt": "Aqui não há nenhum None para explicar: a fita observou {src}{s} e gravou as "
              "operações que levam dela até {tgt}{t}, então `tape.gradient` devolve um gradiente "
              "de verdade.",
        "ru": "Здесь нечего объяснять: лента отслеживала {src}{s} и записала операции, которые "
              "связывают его с целью{t}, поэтому `tape.gradient` возвращает настоящий градиент, а "
              "не None.",
    },
    "why_none.not_watched": {
        "en": "{Src}{s} is a plain Tensor, and a tape follows a Tensor only when you ask it to. "
              "Add `tape.watch({code})` inside the `with` block, before the tensor is used (or "
              "make it a `tf.Variable`: tapes watch trainable Variables automatically).",
        "es": "{Src}{s} es un tensor normal, y la cinta solo observa un tensor cuando se lo pides. "
              "Añade `tape.watch({code})` dentro del bloque `with`, antes de usar el tensor (o "
              "conviértelo en una `tf.Variable`: las cintas observan automáticamente las variables "
              "entrenables).",
        "pt": "{Src}{s} é um tensor comum, e a fita só observa um tensor quando você pede. "
              "Acrescente `tape.watch({code})` dentro do bloco `with`, antes de usar o tensor (ou "
              "transforme-o numa `tf.Variable`: as fitas observam automaticamente as variáveis "
              "treináveis).",
        "ru": "Источник{s} — обычный тензор, а тензор лента отслеживает, только если её об этом "
              "попросить. Добавьте `tape.watch({code})` внутри блока `with`, до того как тензор "
              "используется (или сделайте его `tf.Variable`: обучаемые переменные лента "
              "отслеживает автоматически).",
    },
    "why_none.not_watched_variable": {
        "en": "{Src}{s} is a Variable, but this tape was created with "
              "`watch_accessed_variables=False`, so it follows only what you pass to `tape.watch`. "
              "Add `tape.watch({code})` inside the `with` block, before the variable is used.",
        "es": "{Src}{s} es una variable (`tf.Variable`), pero esta cinta se creó con "
              "`watch_accessed_variables=False`, así que solo observa lo que le pases a "
              "`tape.watch`. Añade `tape.watch({code})` dentro del bloque `with`, antes de usar la "
              "variable.",
        "pt": "{Src}{s} é uma variável (`tf.Variable`), mas esta fita foi criada com "
              "`watch_accessed_variables=False`, então ela só observa o que você passar para "
              "`tape.watch`. Acrescente `tape.watch({code})` dentro do bloco `with`, antes de usar "
              "a variável.",
        "ru": "Источник{s} — это переменная (`tf.Variable`), но лента создана с "
              "`watch_accessed_variables=False` и поэтому отслеживает только то, что передано в "
              "`tape.watch`. Добавьте "
              "`tape.watch({code})` внутри блока `with`, до того как переменная используется.",
    },
    "why_none.not_trainable": {
        "en": "{Src}{s} is a Variable created with `trainable=False`. Tapes skip non-trainable "
              "Variables on purpose (a step counter or a running average is not something to "
              "train), so nothing computed from it was recorded. Remove `trainable=False` if it is "
              "a parameter of your model, or call `tape.watch({code})` if you need this gradient "
              "anyway.",
        "es": "{Src}{s} es una variable creada con `trainable=False`. Las cintas ignoran a "
              "propósito las variables no entrenables (un contador de pasos o una media móvil no "
              "son cosas que se entrenen), así que no se grabó nada de lo que se calculó con ella. "
              "Quita `trainable=False` si es un parámetro de tu modelo, o llama a "
              "`tape.watch({code})` si de todos modos necesitas este gradiente.",
        "pt": "{Src}{s} é uma variável criada com `trainable=False`. As fitas ignoram de propósito "
              "as variáveis não treináveis (um contador de passos ou uma média móvel não são "
              "coisas que se treinam), então nada do que foi calculado com ela foi gravado. Tire o "
              "`trainable=False` se for um parâmetro do seu modelo, ou chame `tape.watch({code})` "
              "se você precisar deste gradiente mesmo assim.",
        "ru": "Источник{s} — это переменная с `trainable=False`. Необучаемые переменные лента "
              "пропускает намеренно (счётчик шагов или скользящее среднее обучать не нужно), "
              "поэтому лента не записала ничего, что вычислено на его основе. Уберите "
              "`trainable=False`, если это параметр модели, или вызовите `tape.watch({code})`, "
              "если этот градиент всё-таки нужен.",
    },
    "why_none.integer": {
        "en": "{Src}{s} has the integer dtype `{dtype}`. Gradients exist only for floating-point "
              "values (you cannot nudge an integer by a tiny amount), so the tape does not follow "
              "it. Create it from a float: `tf.Variable(2.0)` rather than `tf.Variable(2)`, or "
              "pass `dtype=tf.float32`.",
        "es": "{Src}{s} tiene el tipo entero `{dtype}`. Los gradientes solo existen para valores "
              "de coma flotante (a un entero no se le puede sumar una cantidad infinitesimal), así "
              "que la cinta no graba sus operaciones. Crea el valor a partir de un número de coma "
              "flotante: "
              "`tf.Variable(2.0)` en lugar de `tf.Variable(2)`, o indica `dtype=tf.float32`.",
        "pt": "{Src}{s} tem o tipo inteiro `{dtype}`. Gradientes só existem para valores de ponto "
              "flutuante (não dá para mexer num inteiro por uma quantidade infinitesimal), então a "
              "fita não grava as operações com esse valor. Crie o valor a partir de um número de ponto "
              "flutuante: "
              "`tf.Variable(2.0)` em vez de `tf.Variable(2)`, ou informe `dtype=tf.float32`.",
        "ru": "Источник{s} имеет целочисленный тип `{dtype}`. Градиенты существуют только для "
              "чисел с плавающей точкой (целое число нельзя изменить на бесконечно малую "
              "величину), поэтому лента не записывает операции с этим значением. Создайте его из "
              "числа с плавающей точкой: `tf.Variable(2.0)` вместо `tf.Variable(2)` — или укажите "
              "`dtype=tf.float32`.",
    },
    "why_none.integer_target": {
        "en": "{Tgt}{t} has the integer dtype `{dtype}`, so there is nothing to differentiate: "
              "gradients are defined only for floating-point targets. Keep the computation that "
              "leads to the target in `float32`.",
        "es": "{Tgt}{t} tiene el tipo entero `{dtype}`, así que no hay nada que derivar: los "
              "gradientes solo están definidos para objetivos de coma flotante. Mantén en "
              "`float32` todo el cálculo que lleva hasta el objetivo.",
        "pt": "{Tgt}{t} tem o tipo inteiro `{dtype}`, então não há o que derivar: gradientes só "
              "são definidos para alvos de ponto flutuante. Mantenha em `float32` todo o cálculo "
              "que leva até o alvo.",
        "ru": "Цель{t} имеет целочисленный тип `{dtype}`, поэтому дифференцировать нечего: "
              "градиенты определены только для целей с плавающей точкой. Проведите все вычисления, "
              "ведущие к цели, в `float32`.",
    },
    "why_none.variable_replaced": {
        "en": "{Src}{s} is not a Variable any more: it is a plain Tensor computed from the "
              "Variable `{var}` with `{sym}` outside the tape, the classic `x = x + 1`. Tapes "
              "watch Variables automatically, but not the Tensors made from them. To change a "
              "Variable and keep it a Variable, update it in place: `{code}.assign_add(...)`, "
              "`{code}.assign_sub(...)` or `{code}.assign(...)`.",
        "es": "{Src}{s} ya no es una variable: es un tensor normal, calculado fuera de la cinta a "
              "partir de la variable `{var}` con `{sym}`; es el clásico `x = x + 1`. Las cintas "
              "observan automáticamente las variables, pero no los tensores que se obtienen de "
              "ellas. Para cambiar una variable sin que deje de serlo, actualízala en su sitio: "
              "`{code}.assign_add(...)`, `{code}.assign_sub(...)` o `{code}.assign(...)`.",
        "pt": "{Src}{s} não é mais uma variável: é um tensor comum, calculado fora da fita a "
              "partir da variável `{var}` com `{sym}`; é o clássico `x = x + 1`. As fitas observam "
              "variáveis automaticamente, mas não os tensores obtidos delas. Para mudar uma "
              "variável sem que ela deixe de ser variável, atualize-a no lugar: "
              "`{code}.assign_add(...)`, `{code}.assign_sub(...)` ou `{code}.assign(...)`.",
        "ru": "Источник{s} — уже не переменная (`tf.Variable`), а обычный тензор, вычисленный вне ленты из "
              "переменной `{var}` с помощью `{sym}`: классическое `x = x + 1`. Переменные лента "
              "отслеживает автоматически, а полученные из них тензоры — нет. Чтобы переменная "
              "осталась переменной, меняйте её на месте: `{code}.assign_add(...)`, "
              "`{code}.assign_sub(...)` или `{code}.assign(...)`.",
    },
    "why_none.unconnected": {
        "en": "The tape recorded no operation leading from {src}{s} to {tgt}{t}: while it recorded, "
              "the target was not computed from this source (a result computed from it before "
              "the `with` block does not count). Check that, inside the `with` block, the target "
              "really is computed from this source (a misspelt or reused name is the usual "
              "culprit).",
        "es": "La cinta no grabó ninguna operación que lleve desde {src}{s} hasta {tgt}{t}: mientras "
              "grababa, el objetivo no se calculó con esta fuente (un resultado calculado con ella "
              "antes del bloque `with` no cuenta). Comprueba que, dentro del bloque `with`, el "
              "objetivo se calcula de verdad con esta fuente (un nombre mal escrito o reutilizado "
              "suele ser el culpable).",
        "pt": "A fita não gravou nenhuma operação no caminho entre {src}{s} e {tgt}{t}: enquanto ela "
              "gravava, o alvo não foi calculado com esta fonte (um resultado calculado com ela "
              "antes do bloco `with` não conta). Confira se, dentro do bloco `with`, o alvo é mesmo "
              "calculado com esta fonte (um nome digitado errado ou reaproveitado costuma ser o "
              "culpado).",
        "ru": "Лента не записала ни одной операции, которая вела бы от источника{s} к цели{t}: пока "
              "шла запись, цель не вычислялась из этого источника (результат, полученный из него "
              "до блока `with`, не в счёт). Проверьте, что внутри блока `with` цель действительно "
              "вычисляется из этого источника (чаще всего виновата опечатка или повторно "
              "использованное имя).",
    },
    "why_none.numpy": {
        "en": "On the way to {tgt}{t}, a value computed from {src}{s} left minitape through {via}. "
              "From there on the arithmetic was done by NumPy or plain Python, which a tape cannot "
              "see, so the path is broken. {fix}",
        "es": "En el camino hacia {tgt}{t}, un valor calculado con {src}{s} salió de minitape por "
              "{via}. A partir de ahí las cuentas las hizo NumPy (o Python puro), que la cinta no "
              "ve, así que el camino quedó cortado. {fix}",
        "pt": "No caminho até {tgt}{t}, um valor calculado com {src}{s} saiu do minitape por "
              "{via}. Daí em diante as contas foram feitas pelo NumPy (ou por Python puro), que a "
              "fita não enxerga, então o caminho ficou cortado. {fix}",
        "ru": "По пути к цели{t} значение, вычисленное из источника{s}, покинуло minitape через "
              "{via}. Дальше вычисления шли в NumPy (или в чистом Python), а их лента не видит, "
              "поэтому путь оборвался. {fix}",
    },
    "why_none.numpy_fix": {
        "en": "Use `{tf}` instead of `np.{np}`.",
        "es": "Usa `{tf}` en lugar de `np.{np}`.",
        "pt": "Use `{tf}` em vez de `np.{np}`.",
        "ru": "Используйте `{tf}` вместо `np.{np}`.",
    },
    "why_none.numpy_fix_generic": {
        "en": "Use minitape operations (`tf.…`) for every step between the source and the target.",
        "es": "Usa operaciones de minitape (`tf.…`) en todos los pasos entre la fuente y el "
              "objetivo.",
        "pt": "Use operações do minitape (`tf.…`) em todos os passos entre a fonte e o alvo.",
        "ru": "Используйте операции minitape (`tf.…`) на каждом шаге между источником и целью.",
    },
    "why_none.via_call": {
        "en": "`np.{np}`",
        "es": "`np.{np}`",
        "pt": "`np.{np}`",
        "ru": "`np.{np}`",
    },
    "why_none.via_numpy": {
        "en": "a NumPy function",
        "es": "una función de NumPy",
        "pt": "uma função do NumPy",
        "ru": "функцию NumPy",
    },
    "why_none.via_method": {
        "en": "`.numpy()`",
        "es": "`.numpy()`",
        "pt": "`.numpy()`",
        "ru": "`.numpy()`",
    },
    "why_none.via_float": {
        "en": "`float(...)`",
        "es": "`float(...)`",
        "pt": "`float(...)`",
        "ru": "`float(...)`",
    },
    "why_none.via_int": {
        "en": "`int(...)`",
        "es": "`int(...)`",
        "pt": "`int(...)`",
        "ru": "`int(...)`",
    },
    "why_none.via_line": {
        "en": " (in `{line}`)",
        "es": " (en `{line}`)",
        "pt": " (em `{line}`)",
        "ru": " (в строке `{line}`)",
    },
    "why_none.assign": {
        "en": "{Src}{s} reached {tgt}{t} only through `{var}.{op}(...)`. An assignment is "
              "stateful: the tape sees the Variable's new value as a fresh starting point, not as "
              "a result computed from the source, so the gradient stops at the assignment. Compute "
              "the value with ordinary operations inside the tape, and assign only after taking "
              "the gradient.",
        "es": "{Src}{s} solo llegó hasta {tgt}{t} a través de `{var}.{op}(...)`. Una asignación "
              "tiene estado: la cinta ve el nuevo valor de la variable como un punto de partida "
              "nuevo, no como un resultado calculado con la fuente, así que el gradiente se "
              "detiene en la asignación. Calcula el valor con operaciones normales dentro de la "
              "cinta y asigna solo después de obtener el gradiente.",
        "pt": "{Src}{s} só chegou até {tgt}{t} através de `{var}.{op}(...)`. Uma atribuição tem "
              "estado: a fita vê o novo valor da variável como um novo ponto de partida, não como "
              "um resultado calculado com a fonte, então o gradiente para na atribuição. Calcule o "
              "valor com operações comuns dentro da fita e faça a atribuição só depois de obter o "
              "gradiente.",
        "ru": "Источник{s} влияет на цель{t} только через `{var}.{op}(...)`. Присваивание меняет "
              "состояние: новое значение переменной лента видит как новую отправную точку, а не "
              "как результат вычислений из источника, поэтому градиент на присваивании "
              "останавливается. Вычислите значение обычными операциями внутри ленты, а "
              "присваивайте только после того, как градиент получен.",
    },
    "why_none.integer_cast": {
        "en": "On the way to {tgt}{t}, `{op}` turned a value computed from {src}{s} into the "
              "integer dtype `{dtype}`. Integers have no gradient, so the tape stops following the "
              "value there. Keep the computation in floating point.",
        "es": "En el camino hacia {tgt}{t}, `{op}` convirtió un valor calculado con {src}{s} al "
              "tipo entero `{dtype}`. Los enteros no tienen gradiente, así que la cinta deja de "
              "seguir el valor ahí. Mantén el cálculo en coma flotante.",
        "pt": "No caminho até {tgt}{t}, `{op}` converteu um valor calculado com {src}{s} para o "
              "tipo inteiro `{dtype}`. Inteiros não têm gradiente, então a fita deixa de "
              "acompanhar o valor ali. Mantenha o cálculo em ponto flutuante.",
        "ru": "По пути к цели{t} операция `{op}` превратила значение, вычисленное из источника{s}, "
              "в целочисленный тип `{dtype}`. У целых чисел нет градиента, поэтому здесь лента "
              "перестаёт следить за значением. Оставьте вычисления в числах с плавающей точкой.",
    },
    "why_none.not_differentiable": {
        "en": "On the way to {tgt}{t}, a value computed from {src}{s} went through `{op}`, an "
              "operation registered as not differentiable: the tape does not record it, so the "
              "gradient stops there.",
        "es": "En el camino hacia {tgt}{t}, un valor calculado con {src}{s} pasó por `{op}`, una "
              "operación declarada no diferenciable: la cinta no la graba, así que el gradiente se "
              "detiene ahí.",
        "pt": "No caminho até {tgt}{t}, um valor calculado com {src}{s} passou por `{op}`, uma "
              "operação declarada não diferenciável: a fita não a grava, então o gradiente para "
              "ali.",
        "ru": "По пути к цели{t} значение, вычисленное из источника{s}, прошло через `{op}` — "
              "операцию, которая зарегистрирована как недифференцируемая: лента её не записывает, "
              "поэтому градиент здесь останавливается.",
    },
    "why_none.stop_gradient": {
        "en": "On the way to {tgt}{t}, a value computed from {src}{s} went through "
              "`tf.stop_gradient`, whose whole job is to block the gradient: the tape treats its "
              "result as a constant.",
        "es": "En el camino hacia {tgt}{t}, un valor calculado con {src}{s} pasó por "
              "`tf.stop_gradient`, cuyo único trabajo es bloquear el gradiente: la cinta trata su "
              "resultado como una constante.",
        "pt": "No caminho até {tgt}{t}, um valor calculado com {src}{s} passou por "
              "`tf.stop_gradient`, cuja única função é bloquear o gradiente: a fita trata o "
              "resultado como uma constante.",
        "ru": "По пути к цели{t} значение, вычисленное из источника{s}, прошло через "
              "`tf.stop_gradient` — функцию, единственная задача которой — остановить градиент: её "
              "результат лента считает константой.",
    },
    "why_none.comparison": {
        "en": "The tape recorded no operation leading from {src}{s} to {tgt}{t}; the only use of "
              "the source was the comparison `{op}` (in an `if`, for example). A comparison only "
              "decides which operations run; it has no gradient, so control flow is invisible to "
              "`tape.gradient`.",
        "es": "La cinta no grabó ninguna operación que lleve desde {src}{s} hasta {tgt}{t}; la "
              "fuente solo se usó en la comparación `{op}` (por ejemplo, en un `if`). Una "
              "comparación solo decide qué operaciones se ejecutan; no tiene gradiente, así que el "
              "flujo de control es invisible para `tape.gradient`.",
        "pt": "A fita não gravou nenhuma operação no caminho entre {src}{s} e {tgt}{t}; o único "
              "uso da fonte foi na comparação `{op}` (num `if`, por exemplo). Uma comparação só "
              "decide quais operações são executadas; ela não tem gradiente, então o fluxo de "
              "controle é invisível para `tape.gradient`.",
        "ru": "Лента не записала ни одной операции, которая вела бы от источника{s} к цели{t}; "
              "источник использовался только в сравнении `{op}` (например, в `if`). Сравнение лишь "
              "решает, какие операции выполнятся; градиента у него нет, поэтому управляющие "
              "конструкции для `tape.gradient` невидимы.",
    },
    # ----- draw() and the stepper: header, legend, notes, buttons ---------------------------------
    "draw.source": {
        "en": "watched source",
        "es": "fuente observada",
        "pt": "fonte observada",
        "ru": "отслеживаемый источник",
    },
    "draw.target": {
        "en": "target",
        "es": "objetivo",
        "pt": "alvo",
        "ru": "цель",
    },
    "draw.inter": {
        "en": "computed",
        "es": "calculado",
        "pt": "calculado",
        "ru": "вычисленный",
    },
    "draw.const": {
        "en": "constant",
        "es": "constante",
        "pt": "constante",
        "ru": "константа",
    },
    "draw.variable": {
        "en": "not watched",
        "es": "no observada",
        "pt": "não observada",
        "ru": "не отслеживается",
    },
    "draw.grad": {
        "en": "grad",
        "es": "grad",
        "pt": "grad",
        "ru": "градиент",
    },
    "draw.op": {
        "en": "operation",
        "es": "operación",
        "pt": "operação",
        "ru": "операция",
    },
    "draw.ops.plural": {
        "en": "operation|operations",
        "es": "operación|operaciones",
        "pt": "operação|operações",
        "ru": "операция|операции|операций",
    },
    "draw.recorded.plural": {
        "en": "recorded|recorded",
        "es": "grabada|grabadas",
        "pt": "gravada|gravadas",
        "ru": "записана|записаны|записано",
    },
    "draw.of": {
        "en": "of",
        "es": "de",
        "pt": "de",
        "ru": "из",
    },
    "draw.showing": {
        "en": "showing the last",
        "es": "se muestran las últimas",
        "pt": "mostrando as últimas",
        "ru": "показаны последние",
    },
    "draw.spent": {
        "en": "values were freed by tape.gradient (use persistent=True to keep them)",
        "es": "tape.gradient liberó los valores (usa persistent=True para conservarlos)",
        "pt": "tape.gradient liberou os valores (use persistent=True para mantê-los)",
        "ru": "tape.gradient освободил значения (persistent=True сохранит их)",
    },
    "draw.empty": {
        "en": "The tape recorded no operations.",
        "es": "La cinta no grabó ninguna operación.",
        "pt": "A fita não gravou nenhuma operação.",
        "ru": "Лента не записала ни одной операции.",
    },
    "draw.next": {
        "en": "Next",
        "es": "Siguiente",
        "pt": "Próximo",
        "ru": "Далее",
    },
    "draw.back": {
        "en": "Back",
        "es": "Atrás",
        "pt": "Voltar",
        "ru": "Назад",
    },
    "draw.reset": {
        "en": "Reset",
        "es": "Reiniciar",
        "pt": "Reiniciar",
        "ru": "Сначала",
    },
    "draw.step": {
        "en": "step",
        "es": "paso",
        "pt": "passo",
        "ru": "шаг",
    },
    "draw.seed": {
        "en": "seed: d{t}/d{t} = 1",
        "es": "semilla: d{t}/d{t} = 1",
        "pt": "semente: d{t}/d{t} = 1",
        "ru": "начальное значение: d{t}/d{t} = 1",
    },
    "draw.current": {
        "en": "current operation",
        "es": "operación actual",
        "pt": "operação atual",
        "ru": "текущая операция",
    },
    "draw.tensor": {
        "en": "tensor",
        "es": "tensor",
        "pt": "tensor",
        "ru": "тензор",
    },
    "draw.value": {
        "en": "value",
        "es": "valor",
        "pt": "valor",
        "ru": "значение",
    },
    "draw.sofar": {
        "en": "gradient so far",
        "es": "gradiente acumulado",
        "pt": "gradiente acumulado",
        "ru": "накопленный градиент",
    },
    "draw.done": {
        "en": "done",
        "es": "terminado",
        "pt": "concluído",
        "ru": "готово",
    },
    "draw.result": {
        "en": "result (= tape.gradient)",
        "es": "resultado (= tape.gradient)",
        "pt": "resultado (= tape.gradient)",
        "ru": "результат (= tape.gradient)",
    },
    "draw.partial": {
        "en": "still collecting",
        "es": "aún acumulando",
        "pt": "ainda acumulando",
        "ru": "ещё накапливается",
    },
    "draw.complete": {
        "en": "complete",
        "es": "completo",
        "pt": "completo",
        "ru": "готов",
    },
    "draw.ops_of.plural": {
        "en": "operation|operations",
        "es": "operación|operaciones",
        "pt": "operação|operações",
        "ru": "операции|операций|операций",
    },
    "draw.error.spent": {
        "en": "This tape no longer holds its recording: a non-persistent tape frees it when "
              "tape.gradient (or jacobian) is called. Draw it before calling gradient, or create "
              "it with tf.GradientTape(persistent=True).",
        "es": "Esta cinta ya no conserva su grabación: una cinta no persistente la libera al "
              "llamar a tape.gradient (o a jacobian). Dibújala antes de llamar a tape.gradient, o "
              "créala con tf.GradientTape(persistent=True).",
        "pt": "Esta fita não guarda mais a sua gravação: uma fita não persistente a libera "
              "quando tape.gradient (ou jacobian) é chamado. Desenhe-a antes de chamar tape.gradient, "
              "ou crie-a com tf.GradientTape(persistent=True).",
        "ru": "Эта лента больше не хранит свою запись: неперсистентная лента освобождает её при "
              "вызове tape.gradient (или jacobian). Нарисуйте её до вызова tape.gradient или создайте "
              "с tf.GradientTape(persistent=True).",
    },
    # ----- draw()'s text alternative (its <desc>): the recorded operations in order, then the
    # tensors the drawing marks by role (each "none" agrees with its own noun: objetivos, alvos
    # are masculine) ------------------------------------------------------------------------------
    "draw.desc.order": {
        "en": "Recorded operations, in order",
        "es": "Operaciones grabadas, en orden",
        "pt": "Operações gravadas, em ordem",
        "ru": "Записанные операции по порядку",
    },
    "draw.desc.watched": {
        "en": "Watched sources",
        "es": "Fuentes observadas",
        "pt": "Fontes observadas",
        "ru": "Отслеживаемые источники",
    },
    "draw.desc.targets": {
        "en": "Targets",
        "es": "Objetivos",
        "pt": "Alvos",
        "ru": "Цели",
    },
    "draw.desc.unwatched": {
        "en": "Variables not watched",
        "es": "Variables no observadas",
        "pt": "Variáveis não observadas",
        "ru": "Неотслеживаемые переменные",
    },
    "draw.desc.no_ops": {
        "en": "none",
        "es": "ninguna",
        "pt": "nenhuma",
        "ru": "нет",
    },
    "draw.desc.no_sources": {
        "en": "none",
        "es": "ninguna",
        "pt": "nenhuma",
        "ru": "нет",
    },
    "draw.desc.no_targets": {
        "en": "none",
        "es": "ninguno",
        "pt": "nenhum",
        "ru": "нет",
    },
}

CATALOG = Catalog("minitape.debugging", MESSAGES, where="minitape/debugging/messages.py")

# why_none's templates by language, {lang: {template: text}}: a read-only projection of MESSAGES
# (not a second catalog) for grader.mistakes, which recognizes a kernel's explanation by its
# template whatever the language it came back in.
WHY_NONE_BY_LANGUAGE = {
    lang: {key.removeprefix("why_none."): texts[lang] for key, texts in MESSAGES.items()
           if key.startswith("why_none.") and not key.startswith("why_none.noun.")}
    for lang in LANGS
}
