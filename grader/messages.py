"""Every text the grader shows students, in en, es, pt and ru (key-major, side by side).

Placeholders are ``str.format`` fields; code, names and numbers are inserted by the caller.
``tests/grader/test_grader_i18n.py`` checks that every key has all four languages and the same
placeholders in each.  Terminology follows the lessons: gradient = gradiente / gradiente /
градиент; tape = cinta / fita / лента (TensorFlow's name ``GradientTape`` is kept in code).
"""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # ----- report header and summary -------------------------------------------------------
    "report.title": {
        "en": "Exercise “{exercise}”",
        "es": "Ejercicio «{exercise}»",
        "pt": "Exercício “{exercise}”",
        "ru": "Упражнение «{exercise}»",
    },
    "report.score.plural": {
        "en": "Score: {score} of {points} point|Score: {score} of {points} points",
        "es": "Puntuación: {score} de {points} punto|Puntuación: {score} de {points} puntos",
        "pt": "Pontuação: {score} de {points} ponto|Pontuação: {score} de {points} pontos",
        "ru": "баллы: {score} из {points}|баллы: {score} из {points}|баллы: {score} из {points}",
    },
    "report.optional": {
        "en": "Optional exercise, no points: {passed} of {total} checks passed",
        "es": "Ejercicio opcional, sin puntos: {passed} de {total} comprobaciones superadas",
        "pt": "Exercício opcional, sem pontos: {passed} de {total} verificações corretas",
        "ru": "необязательное упражнение, без баллов: пройдено {passed} из {total} проверок",
    },
    "report.optional_note": {
        "en": "This exercise is optional: its checks are run and shown to you and to your teacher, and it adds nothing to the grade.",
        "es": "Este ejercicio es opcional: sus comprobaciones se ejecutan y se os muestran a ti y a tu profesor o profesora, pero no suma nada a la nota.",
        "pt": "Este exercício é opcional: as verificações rodam e aparecem para você e para o seu professor ou professora, mas ele não soma nada à nota.",
        "ru": "Это упражнение необязательное: его проверки выполняются и видны вам и преподавателю, но на оценку оно не влияет.",
    },
    "report.visible_score": {
        "en": "Visible checks: {passed} of {total} passed",
        "es": "Comprobaciones visibles: {passed} de {total} superadas",
        "pt": "Verificações visíveis: {passed} de {total} corretas",
        "ru": "открытые проверки: пройдено {passed} из {total}",
    },
    "report.all_passed": {
        "en": "All checks passed.",
        "es": "Todas las comprobaciones se superaron.",
        "pt": "Todas as verificações passaram.",
        "ru": "Все проверки пройдены.",
    },
    "report.all_visible_passed": {
        "en": "All visible checks passed.",
        "es": "Todas las comprobaciones visibles se superaron.",
        "pt": "Todas as verificações visíveis passaram.",
        "ru": "Все открытые проверки пройдены.",
    },
    "report.some_failed": {
        "en": "Failed checks: {failed} of {total}.",
        "es": "Comprobaciones no superadas: {failed} de {total}.",
        "pt": "Verificações com falha: {failed} de {total}.",
        "ru": "Не пройдено проверок: {failed} из {total}.",
    },
    "report.hidden_pending.plural": {
        "en": "{count} hidden check will run when your notebook is graded. It calls your function at a random point, so only a general solution passes it; its code and values are not shown.|{count} hidden checks will run when your notebook is graded. They call your function at random points, so only a general solution passes them; their code and values are not shown.",
        "es": "Al calificar tu cuaderno se ejecutará {count} comprobación oculta. Llama a tu función en un punto aleatorio, así que solo una solución general la supera; su código y sus valores no se muestran.|Al calificar tu cuaderno se ejecutarán {count} comprobaciones ocultas. Llaman a tu función en puntos aleatorios, así que solo una solución general las supera; su código y sus valores no se muestran.",
        "pt": "Quando o seu notebook for avaliado, será executada {count} verificação oculta. Ela chama a sua função num ponto aleatório, então só uma solução geral passa nela; o código e os valores dela não são mostrados.|Quando o seu notebook for avaliado, serão executadas {count} verificações ocultas. Elas chamam a sua função em pontos aleatórios, então só uma solução geral passa nelas; o código e os valores delas não são mostrados.",
        "ru": "При оценивании блокнота будет выполнена {count} скрытая проверка. Скрытые проверки вызывают вашу функцию в случайных точках, поэтому пройти их может только общее решение; их код и значения не показываются.|При оценивании блокнота будут выполнены {count} скрытые проверки. Они вызывают вашу функцию в случайных точках, поэтому пройти их может только общее решение; их код и значения не показываются.|При оценивании блокнота будет выполнено {count} скрытых проверок. Они вызывают вашу функцию в случайных точках, поэтому пройти их может только общее решение; их код и значения не показываются.",
    },
    "report.hidden_pending_named.plural": {
        "en": "{count} hidden check will run when your notebook is graded. It asks about another case than the visible ones; its code and answer are not shown here.|{count} hidden checks will run when your notebook is graded. They ask about other cases than the visible ones; their code and answers are not shown here.",
        "es": "Al calificar tu cuaderno se ejecutará {count} comprobación oculta. Pregunta por otro caso distinto de los visibles; su código y su respuesta no se muestran aquí.|Al calificar tu cuaderno se ejecutarán {count} comprobaciones ocultas. Preguntan por otros casos distintos de los visibles; su código y sus respuestas no se muestran aquí.",
        "pt": "Quando o seu notebook for avaliado, será executada {count} verificação oculta. Ela pergunta sobre outro caso, diferente dos visíveis; o código e a resposta dela não são mostrados aqui.|Quando o seu notebook for avaliado, serão executadas {count} verificações ocultas. Elas perguntam sobre outros casos, diferentes dos visíveis; o código e as respostas delas não são mostrados aqui.",
        "ru": "При оценивании блокнота будет выполнена {count} скрытая проверка. Она спрашивает о другом случае, не об открытых; её код и ответ здесь не показываются.|При оценивании блокнота будут выполнены {count} скрытые проверки. Они спрашивают о других случаях, не об открытых; их код и ответы здесь не показываются.|При оценивании блокнота будет выполнено {count} скрытых проверок. Они спрашивают о других случаях, не об открытых; их код и ответы здесь не показываются.",
    },
    # the one rule for number types and the one tolerance (grader.student.checks), under every report
    "report.compare_rule": {
        "en": "Your answer counts by its value: a tensor, a NumPy array, a Python number or a list of numbers, integers or floats, computed in float32 or float64. It is compared within float32's tolerance (relative error up to {rtol}, absolute {atol} near zero).",
        "es": "Tu respuesta cuenta por su valor: un tensor, un array de NumPy, un número de Python o una lista de números, enteros o de coma flotante, calculados en float32 o en float64. Se compara con la tolerancia de float32 (error relativo de hasta {rtol}; absoluto de {atol} cerca de cero).",
        "pt": "A sua resposta vale pelo valor: um tensor, um array do NumPy, um número do Python ou uma lista de números, inteiros ou de ponto flutuante, calculados em float32 ou em float64. Ela é comparada com a tolerância do float32 (erro relativo de até {rtol}; absoluto de {atol} perto de zero).",
        "ru": "Ответ засчитывается по значению: тензор, массив NumPy, число Python или список чисел, целых или с плавающей точкой, вычисленных во float32 или во float64. Он сравнивается с допуском float32 (относительная погрешность до {rtol}, абсолютная {atol} около нуля).",
    },
    "report.hidden_note": {
        "en": "Hidden checks call your function at points chosen for you; a failed one says why, never at which point or what was expected. Regrading uses the same points.",
        "es": "Las comprobaciones ocultas llaman a tu función en puntos elegidos para ti; una que falla dice por qué, nunca en qué punto ni qué se esperaba. Al recalificar se usan los mismos puntos.",
        "pt": "As verificações ocultas chamam a sua função em pontos escolhidos para você; uma que falha diz por quê, nunca em que ponto nem o que se esperava. Uma nova avaliação usa os mesmos pontos.",
        "ru": "Скрытые проверки вызывают вашу функцию в точках, выбранных для вас; непройденная проверка сообщает причину, но не точку и не ожидаемое значение. При повторном оценивании используются те же точки.",
    },
    "hidden.passed": {
        "en": "Right at this hidden point.",
        "es": "Correcto en este punto oculto.",
        "pt": "Correto neste ponto oculto.",
        "ru": "Верно в этой скрытой точке.",
    },
    "hidden.none": {
        "en": "Your function returned None (or a None inside its answer) at a hidden point.",
        "es": "Tu función devolvió None (o un None dentro de su respuesta) en un punto oculto.",
        "pt": "A sua função devolveu None (ou um None dentro da resposta) num ponto oculto.",
        "ru": "В скрытой точке ваша функция вернула None (или None внутри ответа).",
    },
    "hidden.type": {
        "en": "At a hidden point your function returned something that is not a tensor or a number.",
        "es": "En un punto oculto tu función devolvió algo que no es un tensor ni un número.",
        "pt": "Num ponto oculto a sua função devolveu algo que não é um tensor nem um número.",
        "ru": "В скрытой точке ваша функция вернула не тензор и не число.",
    },
    "hidden.dtype": {
        "en": "At a hidden point the answer is not floating point.",
        "es": "En un punto oculto la respuesta no es de coma flotante.",
        "pt": "Num ponto oculto a resposta não é de ponto flutuante.",
        "ru": "В скрытой точке ответ не в формате с плавающей точкой.",
    },
    "hidden.shape": {
        "en": "At a hidden point the answer has the wrong shape.",
        "es": "En un punto oculto la respuesta tiene la forma equivocada.",
        "pt": "Num ponto oculto a resposta tem o formato errado.",
        "ru": "В скрытой точке у ответа неверная форма.",
    },
    "hidden.structure": {
        "en": "At a hidden point the answer is not structured like the expected one (list, dict, number of parts).",
        "es": "En un punto oculto la respuesta no tiene la estructura esperada (lista, diccionario, número de partes).",
        "pt": "Num ponto oculto a resposta não tem a estrutura esperada (lista, dicionário, número de partes).",
        "ru": "В скрытой точке структура ответа не та (список, словарь, число частей).",
    },
    "hidden.not_finite": {
        "en": "At a hidden point the answer contains NaN or infinity.",
        "es": "En un punto oculto la respuesta contiene NaN o infinito.",
        "pt": "Num ponto oculto a resposta contém NaN ou infinito.",
        "ru": "В скрытой точке ответ содержит NaN или бесконечность.",
    },
    "hidden.values": {
        "en": "Wrong values at a hidden point: the answer is right only at some points, or only at the visible ones.",
        "es": "Valores incorrectos en un punto oculto: la respuesta solo es correcta en algunos puntos, o solo en los visibles.",
        "pt": "Valores errados num ponto oculto: a resposta só está certa em alguns pontos, ou só nos visíveis.",
        "ru": "Неверные значения в скрытой точке: ответ верен лишь в некоторых точках или только в открытых.",
    },
    "hidden.error": {
        "en": "Your function raised an exception at a hidden point.",
        "es": "Tu función lanzó una excepción en un punto oculto.",
        "pt": "A sua função lançou uma exceção num ponto oculto.",
        "ru": "В скрытой точке ваша функция выбросила исключение.",
    },
    "hidden.timeout": {
        "en": "At a hidden point your function ran past its time limit.",
        "es": "En un punto oculto tu función superó su límite de tiempo.",
        "pt": "Num ponto oculto a sua função ultrapassou o limite de tempo.",
        "ru": "В скрытой точке ваша функция превысила лимит времени.",
    },
    "hidden.not_implemented": {
        "en": "Your function is not written yet (it raises NotImplementedError).",
        "es": "Tu función aún no está escrita (lanza NotImplementedError).",
        "pt": "A sua função ainda não foi escrita (lança NotImplementedError).",
        "ru": "Функция ещё не написана (выбрасывает NotImplementedError).",
    },
    "hidden.unusable": {
        "en": "Not checked: the answer at this point was unusable.",
        "es": "No comprobado: la respuesta en este punto no se podía usar.",
        "pt": "Não verificado: a resposta neste ponto não era utilizável.",
        "ru": "Не проверено: ответ в этой точке непригоден.",
    },
    "hidden.other": {
        "en": "Failed at a hidden point.",
        "es": "Falló en un punto oculto.",
        "pt": "Falhou num ponto oculto.",
        "ru": "Не пройдено в скрытой точке.",
    },
    "absent.autodiff": {
        "en": "{name} is not available here: this exercise is graded without minitape's automatic differentiation (GradientTape, jacobian, ForwardAccumulator, custom_gradient, optimizers' minimize). Compute the answer with your own tape.",
        "es": "{name} no está disponible aquí: este ejercicio se califica sin la diferenciación automática de minitape (GradientTape, jacobian, ForwardAccumulator, custom_gradient, el minimize de los optimizadores). Calcula la respuesta con tu propia cinta.",
        "pt": "{name} não está disponível aqui: este exercício é avaliado sem a diferenciação automática do minitape (GradientTape, jacobian, ForwardAccumulator, custom_gradient, o minimize dos otimizadores). Calcule a resposta com a sua própria fita.",
        "ru": "{name} здесь недоступен: это упражнение проверяется без автоматического дифференцирования minitape (GradientTape, jacobian, ForwardAccumulator, custom_gradient, minimize оптимизаторов). Вычислите ответ своей собственной лентой.",
    },
    "err.forged": {
        "en": "`{name}` as submitted always raises, yet values were reported for it: they did not come from your function.",
        "es": "`{name}` tal como se entregó siempre lanza una excepción, pero se informaron valores para ella: no salieron de tu función.",
        "pt": "`{name}` como foi entregue sempre lança uma exceção, mas foram informados valores para ela: não vieram da sua função.",
        "ru": "`{name}` в сданном виде всегда выбрасывает исключение, но для неё были переданы значения: они получены не из вашей функции.",
    },
    "report.visible": {
        "en": "visible",
        "es": "visible",
        "pt": "visível",
        "ru": "открытая",
    },
    "report.hidden": {
        "en": "hidden",
        "es": "oculta",
        "pt": "oculta",
        "ru": "скрытая",
    },
    "report.col_check": {
        "en": "Check",
        "es": "Comprobación",
        "pt": "Verificação",
        "ru": "Проверка",
    },
    "report.col_result": {
        "en": "Result",
        "es": "Resultado",
        "pt": "Resultado",
        "ru": "Результат",
    },
    "report.passed": {
        "en": "passed",
        "es": "superada",
        "pt": "passou",
        "ru": "пройдена",
    },
    "report.failed": {
        "en": "failed",
        "es": "fallida",
        "pt": "falhou",
        "ru": "не пройдена",
    },
    "report.expected": {
        "en": "expected",
        "es": "esperado",
        "pt": "esperado",
        "ru": "ожидалось",
    },
    "report.got": {
        "en": "got",
        "es": "obtenido",
        "pt": "obtido",
        "ru": "получено",
    },
    "report.traceback": {
        "en": "where it was raised",
        "es": "dónde se lanzó",
        "pt": "onde foi lançado",
        "ru": "где возникла ошибка",
    },
    "report.captured": {
        "en": "While being checked, your code printed the following (warnings and stderr "
              "output never cost points):",
        "es": "Durante la comprobación, tu código imprimió lo siguiente (los avisos y la "
              "salida por stderr nunca restan puntos):",
        "pt": "Durante a verificação, o seu código imprimiu o seguinte (avisos e saída em "
              "stderr nunca tiram pontos):",
        "ru": "Во время проверки ваш код вывел следующее (предупреждения и вывод в stderr "
              "баллов не снижают):",
    },
    "report.zero.plural": {
        "en": "Exercise “{exercise}”: no check passed (0 of {points} point). See the report above.|Exercise “{exercise}”: no check passed (0 of {points} points). See the report above.",
        "es": "Ejercicio «{exercise}»: no se superó ninguna comprobación (0 de {points} punto). Mira el informe de arriba.|Ejercicio «{exercise}»: no se superó ninguna comprobación (0 de {points} puntos). Mira el informe de arriba.",
        "pt": "Exercício “{exercise}”: nenhuma verificação passou (0 de {points} ponto). Veja o relatório acima.|Exercício “{exercise}”: nenhuma verificação passou (0 de {points} pontos). Veja o relatório acima.",
        "ru": "Упражнение «{exercise}»: не пройдена ни одна проверка (0 из {points}). Подробности — в отчёте выше.|Упражнение «{exercise}»: не пройдена ни одна проверка (0 из {points}). Подробности — в отчёте выше.|Упражнение «{exercise}»: не пройдена ни одна проверка (0 из {points}). Подробности — в отчёте выше.",
    },
    "report.validate_failed": {
        "en": "Exercise “{exercise}”: failed visible checks: {failed} of {total}.",
        "es": "Ejercicio «{exercise}»: comprobaciones visibles no superadas: {failed} de {total}.",
        "pt": "Exercício “{exercise}”: verificações visíveis com falha: {failed} de {total}.",
        "ru": "Упражнение «{exercise}»: не пройдено открытых проверок: {failed} из {total}.",
    },
    # ----- the stub nbgrader puts in place of a solution (ClearSolutions.code_stub) --------
    # (the line after the comment is code and stays Python; see LocalizedClearSolutions)
    "stub.code": {
        "en": "# YOUR CODE HERE\nraise NotImplementedError()",
        "es": "# ESCRIBE AQUÍ TU CÓDIGO\nraise NotImplementedError()",
        "pt": "# ESCREVA AQUI O SEU CÓDIGO\nraise NotImplementedError()",
        "ru": "# ВАШ КОД ЗДЕСЬ\nraise NotImplementedError()",
    },
    # ----- autograding: a student's cell killed the kernel (grader GraderExecute) -----------
    "grading.kernel_killed": {
        "en": "The kernel died while running this cell ({cell}): it was restarted and the notebook was graded without this cell. Exercises that need what this cell defines get no points for it.",
        "es": "El kernel se detuvo al ejecutar esta celda ({cell}): se reinició y el cuaderno se calificó sin esta celda. Los ejercicios que necesitan lo que define esta celda no obtienen puntos por ello.",
        "pt": "O kernel parou ao executar esta célula ({cell}): foi reiniciado e o notebook foi corrigido sem esta célula. Os exercícios que precisam do que esta célula define não recebem pontos por isso.",
        "ru": "Ядро завершилось при выполнении этой ячейки ({cell}): оно было перезапущено, и блокнот проверен без этой ячейки. Упражнения, которым нужно то, что определяет эта ячейка, баллов за это не получают.",
    },
    # ----- the frame of nbgrader's feedback page (grader/templates/minitape_feedback) -------
    "feedback.score": {
        "en": "Score",
        "es": "Puntuación",
        "pt": "Pontuação",
        "ru": "Баллы",
    },
    "feedback.answer": {
        "en": "Your answer",
        "es": "Tu respuesta",
        "pt": "A sua resposta",
        "ru": "Ваш ответ",
    },
    "feedback.test_cell": {
        "en": "Test cell",
        "es": "Celda de comprobación",
        "pt": "Célula de verificação",
        "ru": "Проверочная ячейка",
    },
    "feedback.code_answer": {
        "en": "Answer in code",
        "es": "Respuesta en código",
        "pt": "Resposta em código",
        "ru": "Ответ кодом",
    },
    "feedback.written_answer": {
        "en": "Written answer",
        "es": "Respuesta escrita",
        "pt": "Resposta escrita",
        "ru": "Письменный ответ",
    },
    "feedback.task": {
        "en": "Task",
        "es": "Tarea",
        "pt": "Tarefa",
        "ru": "Задание",
    },
    "feedback.comment": {
        "en": "Comment",
        "es": "Comentario",
        "pt": "Comentário",
        "ru": "Комментарий",
    },
    "feedback.comments": {
        "en": "Comments",
        "es": "Comentarios",
        "pt": "Comentários",
        "ru": "Комментарии",
    },
    "feedback.late_penalty": {
        "en": "Late submission penalty",
        "es": "Penalización por entrega tardía",
        "pt": "Penalidade por entrega atrasada",
        "ru": "Штраф за сдачу после срока",
    },
    "feedback.score_changed": {
        "en": "Your teacher changed this score (the automatic grading gave {auto}).",
        "es": "Tu docente cambió esta puntuación (la corrección automática había dado {auto}).",
        "pt": "O docente alterou esta pontuação (a correção automática tinha dado {auto}).",
        "ru": "Преподаватель изменил эту оценку (автоматическая проверка дала {auto}).",
    },
    "feedback.no_response": {
        "en": "No response.",
        "es": "Sin respuesta.",
        "pt": "Sem resposta.",
        "ru": "Нет ответа.",
    },
    "feedback.top": {
        "en": "Top",
        "es": "Arriba",
        "pt": "Topo",
        "ru": "Наверх",
    },
    # ----- names of checks -----------------------------------------------------------------
    "check.random_point": {
        "en": "random point {index}",
        "es": "punto aleatorio {index}",
        "pt": "ponto aleatório {index}",
        "ru": "случайная точка {index}",
    },
    "check.hidden_case": {
        "en": "hidden case {label}",
        "es": "caso oculto {label}",
        "pt": "caso oculto {label}",
        "ru": "скрытый случай {label}",
    },
    "check.finite_difference": {
        "en": "finite differences along a random direction",
        "es": "diferencias finitas en una dirección aleatoria",
        "pt": "diferenças finitas numa direção aleatória",
        "ru": "конечные разности вдоль случайного направления",
    },
    "check.setup": {
        "en": "your function",
        "es": "tu función",
        "pt": "a sua função",
        "ru": "ваша функция",
    },
    # ----- problems before any value is compared -------------------------------------------
    "err.undefined": {
        "en": "Define a function named `{name}` (and run its cell before checking).",
        "es": "Define una función llamada `{name}` (y ejecuta su celda antes de comprobar).",
        "pt": "Defina uma função chamada `{name}` (e execute a célula dela antes de verificar).",
        "ru": "Определите функцию с именем `{name}` (и выполните её ячейку перед проверкой).",
    },
    "err.undefined_absent": {
        "en": "`{name}` was not defined where this exercise is graded, without minitape's automatic differentiation: the cell that defines it (or one it needs) stopped there, because it uses `GradientTape`, `jacobian`, `ForwardAccumulator`, `custom_gradient` or an optimizer's `minimize`. Compute the answer with your own tape.",
        "es": "`{name}` no quedó definida donde se califica este ejercicio, sin la diferenciación automática de minitape: la celda que la define (o una que necesita) se detuvo allí porque usa `GradientTape`, `jacobian`, `ForwardAccumulator`, `custom_gradient` o el `minimize` de un optimizador. Calcula la respuesta con tu propia cinta.",
        "pt": "`{name}` não ficou definida onde este exercício é avaliado, sem a diferenciação automática do minitape: a célula que a define (ou uma de que ela precisa) parou ali porque usa `GradientTape`, `jacobian`, `ForwardAccumulator`, `custom_gradient` ou o `minimize` de um otimizador. Calcule a resposta com a sua própria fita.",
        "ru": "`{name}` не определена там, где проверяется это упражнение, — без автоматического дифференцирования minitape: ячейка, которая её определяет (или нужная ей), остановилась там, потому что использует `GradientTape`, `jacobian`, `ForwardAccumulator`, `custom_gradient` или `minimize` оптимизатора. Вычислите ответ своей собственной лентой.",
    },
    "err.no_result": {
        "en": "The autograder got no result for `{name}`: the test cell raised an error, the kernel stopped, or the notebook changed how results are shown. Run the notebook from the top and check that this exercise's test cell works.",
        "es": "El corrector automático no obtuvo ningún resultado de `{name}`: la celda de prueba dio un error, el kernel se detuvo o el cuaderno cambió cómo se muestran los resultados. Ejecuta el cuaderno desde el principio y comprueba que la celda de prueba de este ejercicio funciona.",
        "pt": "O corretor automático não obteve resultado de `{name}`: a célula de teste deu erro, o kernel parou ou o notebook mudou como os resultados são exibidos. Execute o notebook desde o início e verifique se a célula de teste deste exercício funciona.",
        "ru": "Автопроверка не получила результата `{name}`: тестовая ячейка выдала ошибку, ядро остановилось или блокнот изменил способ вывода результатов. Выполните блокнот с начала и убедитесь, что тестовая ячейка этого упражнения работает.",
    },
    "err.not_callable": {
        "en": "`{name}` must be a function, but it is a value of type `{kind}`.",
        "es": "`{name}` debe ser una función, pero es un valor de tipo `{kind}`.",
        "pt": "`{name}` deve ser uma função, mas é um valor do tipo `{kind}`.",
        "ru": "`{name}` должна быть функцией, а это значение типа `{kind}`.",
    },
    "err.not_implemented": {
        "en": "`{name}` is not written yet: replace `raise NotImplementedError()` with your code.",
        "es": "`{name}` aún no está escrita: sustituye `raise NotImplementedError()` por tu código.",
        "pt": "`{name}` ainda não foi escrita: substitua `raise NotImplementedError()` pelo seu código.",
        "ru": "`{name}` ещё не написана: замените `raise NotImplementedError()` своим кодом.",
    },
    "err.raised": {
        "en": "Calling `{name}` raised {error}",
        "es": "La llamada a `{name}` lanzó {error}",
        "pt": "A chamada de `{name}` lançou {error}",
        "ru": "Вызов `{name}` завершился исключением {error}",
    },
    "err.reference": {
        "en": "The grader could not compute the reference answer ({error}). This is a bug in "
              "the exercise, not in your code: tell your instructor.",
        "es": "El corrector automático no pudo calcular la respuesta de referencia ({error}). Es un "
              "error del ejercicio, no de tu código: avisa a tu profesor.",
        "pt": "O corretor automático não conseguiu calcular a resposta de referência ({error}). É um "
              "erro do exercício, não do seu código: avise o seu professor.",
        "ru": "Проверяющая программа не смогла вычислить эталонный ответ ({error}). Это "
              "ошибка в упражнении, а не в вашем коде: сообщите преподавателю.",
    },
    # ----- comparing one value ---------------------------------------------------------------
    # what is compared decides the words: an exercise declares it (Exercise.compares, one of
    # grader.checks.KINDS), so a loss curve is never called a gradient
    "leaf.none.gradient": {
        "en": "Expected a gradient of shape {shape}, got None.",
        "es": "Se esperaba un gradiente de forma {shape}, pero se obtuvo None.",
        "pt": "Esperava-se um gradiente de formato {shape}, mas veio None.",
        "ru": "Ожидался градиент формы {shape}, а получено None.",
    },
    "leaf.none.derivative": {
        "en": "Expected a derivative of shape {shape}, got None.",
        "es": "Se esperaba una derivada de forma {shape}, pero se obtuvo None.",
        "pt": "Esperava-se uma derivada de formato {shape}, mas veio None.",
        "ru": "Ожидалась производная формы {shape}, а получено None.",
    },
    "leaf.none.hessian": {
        "en": "Expected a Hessian of shape {shape}, got None.",
        "es": "Se esperaba un hessiano de forma {shape}, pero se obtuvo None.",
        "pt": "Esperava-se uma hessiana de formato {shape}, mas veio None.",
        "ru": "Ожидался гессиан формы {shape}, а получено None.",
    },
    "leaf.none.jacobian": {
        "en": "Expected a Jacobian of shape {shape}, got None.",
        "es": "Se esperaba un jacobiano de forma {shape}, pero se obtuvo None.",
        "pt": "Esperava-se uma jacobiana de formato {shape}, mas veio None.",
        "ru": "Ожидался якобиан формы {shape}, а получено None.",
    },
    "leaf.none.hvp": {
        "en": "Expected a Hessian-vector product of shape {shape}, got None.",
        "es": "Se esperaba un producto hessiano-vector de forma {shape}, pero se obtuvo None.",
        "pt": "Esperava-se um produto hessiana-vetor de formato {shape}, mas veio None.",
        "ru": "Ожидалось произведение гессиана на вектор формы {shape}, а получено None.",
    },
    "leaf.none.value": {
        "en": "Expected a value of shape {shape}, got None.",
        "es": "Se esperaba un valor de forma {shape}, pero se obtuvo None.",
        "pt": "Esperava-se um valor de formato {shape}, mas veio None.",
        "ru": "Ожидалось значение формы {shape}, а получено None.",
    },
    "leaf.none.losses": {
        "en": "Expected the losses, of shape {shape}, got None.",
        "es": "Se esperaban las pérdidas, de forma {shape}, pero se obtuvo None.",
        "pt": "Esperavam-se as perdas, de formato {shape}, mas veio None.",
        "ru": "Ожидались значения функции потерь формы {shape}, а получено None.",
    },
    "leaf.none.parameters": {
        "en": "Expected the parameters, of shape {shape}, got None.",
        "es": "Se esperaban los parámetros, de forma {shape}, pero se obtuvo None.",
        "pt": "Esperavam-se os parâmetros, de formato {shape}, mas veio None.",
        "ru": "Ожидались параметры формы {shape}, а получено None.",
    },
    "leaf.type": {
        "en": "Expected numbers of shape {shape} (a tensor, a NumPy array, a Python number or a "
              "list of numbers), got a value of type `{kind}`.",
        "es": "Se esperaban números de forma {shape} (un tensor, un array de NumPy, un número de "
              "Python o una lista de números), pero se obtuvo un valor de tipo `{kind}`.",
        "pt": "Esperavam-se números de formato {shape} (um tensor, um array do NumPy, um número do "
              "Python ou uma lista de números), mas veio um valor do tipo `{kind}`.",
        "ru": "Ожидались числа формы {shape} (тензор, массив NumPy, число Python или список "
              "чисел), а получено значение типа `{kind}`.",
    },
    "leaf.dtype": {
        "en": "Expected real numbers (integers or floats), got dtype {dtype}.",
        "es": "Se esperaban números reales (enteros o de coma flotante), pero el tipo de dato "
              "(`dtype`) es {dtype}.",
        "pt": "Esperavam-se números reais (inteiros ou de ponto flutuante), mas o tipo de dado "
              "(`dtype`) é {dtype}.",
        "ru": "Ожидались вещественные числа (целые или с плавающей точкой), а тип данных (`dtype`) "
              "— {dtype}.",
    },
    "leaf.shape": {
        "en": "Wrong shape: expected {expected}, got {got}. Shapes must match exactly; "
              "broadcasting does not count.",
        "es": "Forma incorrecta: se esperaba {expected} y se obtuvo {got}. Las formas deben "
              "coincidir exactamente: no basta con que una se pueda expandir a la otra "
              "(broadcasting).",
        "pt": "Formato errado: esperava-se {expected}, veio {got}. Os formatos devem coincidir "
              "exatamente: não basta que um possa ser expandido para o outro (broadcasting).",
        "ru": "Неверная форма: ожидалась {expected}, получена {got}. Формы должны совпадать "
              "точно: транслирование (broadcasting) одной формы в другую не засчитывается.",
    },
    "leaf.not_finite.plural": {
        "en": "The result contains {count} non-finite value (NaN or infinity), at index {index}.|The result contains {count} non-finite values (NaN or infinity), the first at index {index}.",
        "es": "El resultado contiene {count} valor no finito (NaN o infinito), en el índice {index}.|El resultado contiene {count} valores no finitos (NaN o infinito); el primero, en el índice {index}.",
        "pt": "O resultado contém {count} valor não finito (NaN ou infinito), no índice {index}.|O resultado contém {count} valores não finitos (NaN ou infinito); o primeiro, no índice {index}.",
        "ru": "Результат содержит {count} нечисловое или бесконечное значение (NaN или inf) по индексу {index}.|Результат содержит {count} нечисловых или бесконечных значения (NaN или inf), первое — по индексу {index}.|Результат содержит {count} нечисловых или бесконечных значений (NaN или inf), первое — по индексу {index}.",
    },
    "leaf.values.scalar": {
        "en": "Wrong value: expected {expected}, got {got} (absolute error {abs_err}, relative error {rel_err}; rtol={rtol}, atol={atol}).",
        "es": "Valor incorrecto: se esperaba {expected} y se obtuvo {got} (error absoluto {abs_err}, error relativo {rel_err}; rtol={rtol}, atol={atol}).",
        "pt": "Valor errado: esperava-se {expected}, veio {got} (erro absoluto {abs_err}, erro relativo {rel_err}; rtol={rtol}, atol={atol}).",
        "ru": "Неверное значение: ожидалось {expected}, получено {got} (абсолютная ошибка {abs_err}, относительная {rel_err}; rtol={rtol}, atol={atol}).",
    },
    "leaf.values.plural": {
        "en": "Wrong values in {count} of {size} entry. Largest absolute error {abs_err}, largest relative error {rel_err}; first differing index {index}: expected {expected}, got {got} (rtol={rtol}, atol={atol}).|Wrong values in {count} of {size} entries. Largest absolute error {abs_err}, largest relative error {rel_err}; first differing index {index}: expected {expected}, got {got} (rtol={rtol}, atol={atol}).",
        "es": "Valores incorrectos en {count} de {size} elemento. Mayor error absoluto {abs_err}, mayor error relativo {rel_err}; primer índice distinto {index}: se esperaba {expected} y se obtuvo {got} (rtol={rtol}, atol={atol}).|Valores incorrectos en {count} de {size} elementos. Mayor error absoluto {abs_err}, mayor error relativo {rel_err}; primer índice distinto {index}: se esperaba {expected} y se obtuvo {got} (rtol={rtol}, atol={atol}).",
        "pt": "Valores errados em {count} de {size} elemento. Maior erro absoluto {abs_err}, maior erro relativo {rel_err}; primeiro índice diferente {index}: esperava-se {expected}, veio {got} (rtol={rtol}, atol={atol}).|Valores errados em {count} de {size} elementos. Maior erro absoluto {abs_err}, maior erro relativo {rel_err}; primeiro índice diferente {index}: esperava-se {expected}, veio {got} (rtol={rtol}, atol={atol}).",
        "ru": "Неверные значения в {count} из {size} элемента. Наибольшая абсолютная ошибка {abs_err}, наибольшая относительная {rel_err}; первый отличающийся индекс {index}: ожидалось {expected}, получено {got} (rtol={rtol}, atol={atol}).|Неверные значения в {count} из {size} элементов. Наибольшая абсолютная ошибка {abs_err}, наибольшая относительная {rel_err}; первый отличающийся индекс {index}: ожидалось {expected}, получено {got} (rtol={rtol}, atol={atol}).|Неверные значения в {count} из {size} элементов. Наибольшая абсолютная ошибка {abs_err}, наибольшая относительная {rel_err}; первый отличающийся индекс {index}: ожидалось {expected}, получено {got} (rtol={rtol}, atol={atol}).",
    },
    "leaf.ok.gradient": {
        "en": "Matches the reference gradient (largest absolute error {abs_err}).",
        "es": "Coincide con el gradiente de referencia (mayor error absoluto {abs_err}).",
        "pt": "Coincide com o gradiente de referência (maior erro absoluto {abs_err}).",
        "ru": "Совпадает с эталонным градиентом (наибольшая абсолютная ошибка {abs_err}).",
    },
    "leaf.ok.derivative": {
        "en": "Matches the reference derivative (largest absolute error {abs_err}).",
        "es": "Coincide con la derivada de referencia (mayor error absoluto {abs_err}).",
        "pt": "Coincide com a derivada de referência (maior erro absoluto {abs_err}).",
        "ru": "Совпадает с эталонной производной (наибольшая абсолютная ошибка {abs_err}).",
    },
    "leaf.ok.hessian": {
        "en": "Matches the reference Hessian (largest absolute error {abs_err}).",
        "es": "Coincide con el hessiano de referencia (mayor error absoluto {abs_err}).",
        "pt": "Coincide com a hessiana de referência (maior erro absoluto {abs_err}).",
        "ru": "Совпадает с эталонным гессианом (наибольшая абсолютная ошибка {abs_err}).",
    },
    "leaf.ok.jacobian": {
        "en": "Matches the reference Jacobian (largest absolute error {abs_err}).",
        "es": "Coincide con el jacobiano de referencia (mayor error absoluto {abs_err}).",
        "pt": "Coincide com a jacobiana de referência (maior erro absoluto {abs_err}).",
        "ru": "Совпадает с эталонным якобианом (наибольшая абсолютная ошибка {abs_err}).",
    },
    "leaf.ok.hvp": {
        "en": "Matches the reference Hessian-vector product (largest absolute error {abs_err}).",
        "es": "Coincide con el producto hessiano-vector de referencia (mayor error absoluto {abs_err}).",
        "pt": "Coincide com o produto hessiana-vetor de referência (maior erro absoluto {abs_err}).",
        "ru": "Совпадает с эталонным произведением гессиана на вектор (наибольшая абсолютная ошибка {abs_err}).",
    },
    "leaf.ok.value": {
        "en": "Matches the reference value (largest absolute error {abs_err}).",
        "es": "Coincide con el valor de referencia (mayor error absoluto {abs_err}).",
        "pt": "Coincide com o valor de referência (maior erro absoluto {abs_err}).",
        "ru": "Совпадает с эталонным значением (наибольшая абсолютная ошибка {abs_err}).",
    },
    "leaf.ok.losses": {
        "en": "Matches the reference losses, step by step (largest absolute error {abs_err}).",
        "es": "Coincide con las pérdidas de referencia, paso a paso (mayor error absoluto {abs_err}).",
        "pt": "Coincide com as perdas de referência, passo a passo (maior erro absoluto {abs_err}).",
        "ru": "Совпадает с эталонными значениями функции потерь на каждом шаге (наибольшая абсолютная ошибка {abs_err}).",
    },
    "leaf.ok.parameters": {
        "en": "Matches the reference parameters after the update (largest absolute error {abs_err}).",
        "es": "Coincide con los parámetros de referencia tras la actualización (mayor error absoluto {abs_err}).",
        "pt": "Coincide com os parâmetros de referência após a atualização (maior erro absoluto {abs_err}).",
        "ru": "Совпадает с эталонными параметрами после обновления (наибольшая абсолютная ошибка {abs_err}).",
    },
    # ----- structure (lists, dicts of gradients) ---------------------------------------------
    "struct.mismatch": {
        "en": "Expected {expected}, got {got}.",
        "es": "Se esperaba {expected}, pero se obtuvo {got}.",
        "pt": "Esperava-se {expected}, mas veio {got}.",
        "ru": "Ожидалось: {expected}; получено: {got}.",
    },
    "struct.dict": {
        "en": "a dict with keys {keys}",
        "es": "un diccionario con las claves {keys}",
        "pt": "um dicionário com as chaves {keys}",
        "ru": "словарь с ключами {keys}",
    },
    # what was returned: Python's list or tuple, by its name in the language (never "un list")
    "struct.list.plural": {
        "en": "a list of {count} gradient|a list of {count} gradients",
        "es": "una lista de {count} gradiente|una lista de {count} gradientes",
        "pt": "uma lista de {count} gradiente|uma lista de {count} gradientes",
        "ru": "список из {count} градиента|список из {count} градиентов|список из {count} градиентов",
    },
    "struct.tuple.plural": {
        "en": "a tuple of {count} gradient|a tuple of {count} gradients",
        "es": "una tupla de {count} gradiente|una tupla de {count} gradientes",
        "pt": "uma tupla de {count} gradiente|uma tupla de {count} gradientes",
        "ru": "кортеж из {count} градиента|кортеж из {count} градиентов|кортеж из {count} градиентов",
    },
    # what is expected: either sequence passes, so the report names both
    "struct.sequence.plural": {
        "en": "a list or tuple of {count} gradient|a list or tuple of {count} gradients",
        "es": "una lista o tupla de {count} gradiente|una lista o tupla de {count} gradientes",
        "pt": "uma lista ou tupla de {count} gradiente|uma lista ou tupla de {count} gradientes",
        "ru": "список или кортеж из {count} градиента|список или кортеж из {count} градиентов|"
              "список или кортеж из {count} градиентов",
    },
    "struct.tensor": {
        "en": "one tensor of shape {shape}",
        "es": "un tensor de forma {shape}",
        "pt": "um tensor de formato {shape}",
        "ru": "один тензор формы {shape}",
    },
    "struct.other": {
        "en": "a value of type `{kind}`",
        "es": "un valor de tipo `{kind}`",
        "pt": "um valor do tipo `{kind}`",
        "ru": "значение типа `{kind}`",
    },
    "struct.missing_key": {
        "en": "The result has no entry {key}.",
        "es": "El resultado no tiene la entrada {key}.",
        "pt": "O resultado não tem a entrada {key}.",
        "ru": "В результате нет элемента {key}.",
    },
    # ----- mistake patterns (grader/mistakes.py, issue 29): one line after the numbers -------
    "mistake.none": {
        "en": "Pattern: None on every check — the tape never connected the target to this source.",
        "es": "Patrón: None en todas las comprobaciones — la cinta nunca conectó el objetivo con esta fuente.",
        "pt": "Padrão: None em todas as verificações — a fita nunca ligou o alvo a esta fonte.",
        "ru": "Типичная ошибка: None во всех проверках — лента так и не связала цель с этим источником.",
    },
    "mistake.none.returned": {
        "en": "Pattern: None on every check — the gradient is computed but never returned.",
        "es": "Patrón: None en todas las comprobaciones — el gradiente se calcula, pero nunca se devuelve.",
        "pt": "Padrão: None em todas as verificações — o gradiente é calculado, mas nunca é devolvido.",
        "ru": "Типичная ошибка: None во всех проверках — градиент вычисляется, но не возвращается.",
    },
    "mistake.shape": {
        "en": "Pattern: the shape is wrong on every check — compare your shape with the source's.",
        "es": "Patrón: la forma es incorrecta en todas las comprobaciones — compárala con la de la fuente.",
        "pt": "Padrão: o formato está errado em todas as verificações — compare-o com o da fonte.",
        "ru": "Типичная ошибка: форма неверна во всех проверках — сравните её с формой источника.",
    },
    "mistake.shape.transposed": {
        "en": "Pattern: the right numbers, transposed — a gradient has its source's shape: check the order of a `matmul` or a `transpose`.",
        "es": "Patrón: los números correctos, traspuestos — un gradiente tiene la forma de su fuente: revisa el orden de un `matmul` o un `transpose`.",
        "pt": "Padrão: os números certos, transpostos — um gradiente tem o formato da sua fonte: confira a ordem de um `matmul` ou um `transpose`.",
        "ru": "Типичная ошибка: верные числа, но транспонированные — градиент имеет форму своего источника: проверьте порядок в `matmul` или `transpose`.",
    },
    "mistake.shape.missing_axis": {
        "en": "Pattern: the right numbers with an axis of size 1 missing — was it squeezed away, or `keepdims` forgotten?",
        "es": "Patrón: los números correctos sin un eje de tamaño 1 — ¿se eliminó con `squeeze` o faltó `keepdims`?",
        "pt": "Padrão: os números certos sem um eixo de tamanho 1 — ele foi removido com `squeeze` ou faltou `keepdims`?",
        "ru": "Типичная ошибка: верные числа, но без оси размера 1 — её убрал `squeeze` или забыт `keepdims`?",
    },
    "mistake.shape.extra_axis": {
        "en": "Pattern: the right numbers with an extra axis of size 1 — a `keepdims=True` or a `reshape` too many?",
        "es": "Patrón: los números correctos con un eje de tamaño 1 de más — ¿sobra un `keepdims=True` o un `reshape`?",
        "pt": "Padrão: os números certos com um eixo de tamanho 1 a mais — sobrou um `keepdims=True` ou um `reshape`?",
        "ru": "Типичная ошибка: верные числа, но с лишней осью размера 1 — лишний `keepdims=True` или `reshape`?",
    },
    "mistake.shape.broadcast": {
        "en": "Pattern: the gradient is not reduced to the source's shape (or reduced too far) — a broadcast source's gradient is summed over the axes broadcasting added.",
        "es": "Patrón: el gradiente no está reducido a la forma de la fuente (o lo está de más) — si una fuente se expandió a una forma mayor (broadcasting), su gradiente se suma sobre los ejes que añadió esa expansión.",
        "pt": "Padrão: o gradiente não foi reduzido ao formato da fonte (ou foi reduzido demais) — se uma fonte foi expandida para um formato maior (broadcasting), o gradiente dela é somado nos eixos que essa expansão acrescentou.",
        "ru": "Типичная ошибка: градиент не сведён к форме источника (или сведён слишком сильно) — если источник был транслирован (broadcasting) на бо́льшую форму, его градиент суммируется по осям, добавленным при транслировании.",
    },
    "mistake.sign": {
        "en": "Pattern: exactly −1 × the reference — is the target negated, or a difference taken the other way round?",
        "es": "Patrón: exactamente −1 × la referencia — ¿está el objetivo cambiado de signo o una resta invertida?",
        "pt": "Padrão: exatamente −1 × a referência — o alvo está com o sinal trocado ou uma subtração invertida?",
        "ru": "Типичная ошибка: ровно −1 × эталон — у цели сменён знак или разность взята в обратном порядке?",
    },
    "mistake.scale": {
        "en": "Pattern: exactly {k} × the reference on every check — a constant factor is off.",
        "es": "Patrón: exactamente {k} × la referencia en todas las comprobaciones — sobra o falta un factor constante.",
        "pt": "Padrão: exatamente {k} × a referência em todas as verificações — sobra ou falta um fator constante.",
        "ru": "Типичная ошибка: ровно {k} × эталон во всех проверках — лишний или пропущенный постоянный множитель.",
    },
    "mistake.scale.2": {
        "en": "Pattern: exactly twice the reference — is a term counted twice?",
        "es": "Patrón: exactamente el doble de la referencia — ¿se cuenta un término dos veces?",
        "pt": "Padrão: exatamente o dobro da referência — um termo foi contado duas vezes?",
        "ru": "Типичная ошибка: ровно вдвое больше эталона — одно слагаемое учтено дважды?",
    },
    "mistake.scale.1/2": {
        "en": "Pattern: exactly half the reference — is the factor 2 of a square's derivative missing?",
        "es": "Patrón: exactamente la mitad de la referencia — ¿falta el factor 2 de la derivada de un cuadrado?",
        "pt": "Padrão: exatamente a metade da referência — falta o fator 2 da derivada de um quadrado?",
        "ru": "Типичная ошибка: ровно половина эталона — пропущен множитель 2 из производной квадрата?",
    },
    "mistake.scale.n": {
        "en": "Pattern: the reference times the number n of values the target averages — a sum where the target takes a mean?",
        "es": "Patrón: la referencia multiplicada por el número n de valores que promedia el objetivo — ¿una suma donde el objetivo usa una media?",
        "pt": "Padrão: a referência vezes o número n de valores cuja média o alvo toma — uma soma onde o alvo usa uma média?",
        "ru": "Типичная ошибка: эталон, умноженный на число n усредняемых значений, — сумма вместо среднего?",
    },
    "mistake.scale.1/n": {
        "en": "Pattern: the reference divided by the number n of values the target adds up — a mean where the target takes a sum?",
        "es": "Patrón: la referencia dividida por el número n de valores que suma el objetivo — ¿una media donde el objetivo usa una suma?",
        "pt": "Padrão: a referência dividida pelo número n de valores que o alvo soma — uma média onde o alvo usa uma soma?",
        "ru": "Типичная ошибка: эталон, делённый на число n суммируемых значений, — среднее вместо суммы?",
    },
    "mistake.partial": {
        "en": "Pattern: the gradient of only part of the target — a term or a factor of the chain rule is missing.",
        "es": "Patrón: el gradiente de solo una parte del objetivo — falta un término o un factor de la regla de la cadena.",
        "pt": "Padrão: o gradiente de apenas uma parte do alvo — falta um termo ou um fator da regra da cadeia.",
        "ru": "Типичная ошибка: градиент только части цели — пропущено слагаемое или множитель цепного правила.",
    },
    "mistake.partial.declared": {
        "en": "Pattern: {title} — {hint}",
        "es": "Patrón: {title} — {hint}",
        "pt": "Padrão: {title} — {hint}",
        "ru": "Типичная ошибка: {title} — {hint}",
    },
    "mistake.stale.declared": {
        "en": "Pattern: {title} — {hint}",
        "es": "Patrón: {title} — {hint}",
        "pt": "Padrão: {title} — {hint}",
        "ru": "Типичная ошибка: {title} — {hint}",
    },
    "mistake.extra.declared": {
        "en": "Pattern: {title} — {hint}",
        "es": "Patrón: {title} — {hint}",
        "pt": "Padrão: {title} — {hint}",
        "ru": "Типичная ошибка: {title} — {hint}",
    },
    "mistake.swapped": {
        "en": "Pattern: this is the reference of {other}, and {other} holds this one — two sources' gradients are exchanged.",
        "es": "Patrón: esto es la referencia de {other}, y {other} tiene esta — los gradientes de dos fuentes están intercambiados.",
        "pt": "Padrão: isto é a referência de {other}, e {other} tem esta — os gradientes de duas fontes estão trocados.",
        "ru": "Типичная ошибка: это эталон для {other}, а {other} содержит этот — градиенты двух источников перепутаны местами.",
    },
    "mistake.stale": {
        "en": "Pattern: the reference at another point — is a value from an earlier call, or a first step, reused (or hard-coded)?",
        "es": "Patrón: la referencia en otro punto — ¿se reutiliza un valor de una llamada anterior o de un primer paso (o está escrito a mano)?",
        "pt": "Padrão: a referência em outro ponto — um valor de uma chamada anterior ou de um primeiro passo foi reutilizado (ou escrito à mão)?",
        "ru": "Типичная ошибка: эталон в другой точке — повторно используется значение из прошлого вызова или первого шага (или оно вписано вручную)?",
    },
    "mistake.not_finite": {
        "en": "Pattern: NaN or infinity on every check — look for a division by zero, a log of 0 or an overflow.",
        "es": "Patrón: NaN o infinito en todas las comprobaciones — busca una división por cero, un log de 0 o un desbordamiento.",
        "pt": "Padrão: NaN ou infinito em todas as verificações — procure uma divisão por zero, um log de 0 ou um estouro.",
        "ru": "Типичная ошибка: NaN или бесконечность во всех проверках — ищите деление на ноль, логарифм нуля или переполнение.",
    },
    "mistake.precision": {
        "en": "Pattern: right to float32's precision, not to float64's — keep the computation in float64 (no `float32` cast or constant).",
        "es": "Patrón: correcto con la precisión de float32, no con la de float64 — mantén el cálculo en float64 (sin conversión ni constantes `float32`).",
        "pt": "Padrão: correto na precisão de float32, não na de float64 — mantenha o cálculo em float64 (sem conversão ou constantes `float32`).",
        "ru": "Типичная ошибка: верно с точностью float32, но не float64 — считайте в float64 (без приведения к `float32` и таких констант).",
    },
    "mistake.other": {
        "en": "No known mistake pattern explains these values.",
        "es": "Ningún patrón de error conocido explica estos valores.",
        "pt": "Nenhum padrão de erro conhecido explica estes valores.",
        "ru": "Ни одна из известных типичных ошибок не объясняет эти значения.",
    },
    # ----- the instructor's class report (grader/class_report.py, issue 29) ------------------
    "classreport.title": {
        "en": "Class report: {assignment}",
        "es": "Informe de la clase: {assignment}",
        "pt": "Relatório da turma: {assignment}",
        "ru": "Отчёт по группе: {assignment}",
    },
    "classreport.summary": {
        "en": "{students} students, {exercises} exercises.",
        "es": "{students} estudiantes, {exercises} ejercicios.",
        "pt": "{students} estudantes, {exercises} exercícios.",
        "ru": "Студентов: {students}, упражнений: {exercises}.",
    },
    "classreport.variants": {
        "en": "Language variants: {variants}.",
        "es": "Variantes de idioma: {variants}.",
        "pt": "Variantes de idioma: {variants}.",
        "ru": "Языковые варианты: {variants}.",
    },
    "classreport.difficulty": {
        "en": "Exercises by difficulty",
        "es": "Ejercicios por dificultad",
        "pt": "Exercícios por dificuldade",
        "ru": "Упражнения по сложности",
    },
    "classreport.difficulty_note": {
        "en": "Mean score as a share of the points, hardest first.",
        "es": "Puntuación media como fracción de los puntos, primero el más difícil.",
        "pt": "Pontuação média como fração dos pontos, o mais difícil primeiro.",
        "ru": "Средний балл как доля от максимума, самые трудные сверху.",
    },
    "classreport.exercise": {
        "en": "Exercise",
        "es": "Ejercicio",
        "pt": "Exercício",
        "ru": "Упражнение",
    },
    "classreport.points": {
        "en": "Points",
        "es": "Puntos",
        "pt": "Pontos",
        "ru": "Баллы",
    },
    "classreport.mean": {
        "en": "Mean",
        "es": "Media",
        "pt": "Média",
        "ru": "Среднее",
    },
    "classreport.full": {
        "en": "Full marks",
        "es": "Nota completa",
        "pt": "Nota máxima",
        "ru": "Полный балл",
    },
    "classreport.zero": {
        "en": "Zero",
        "es": "Cero",
        "pt": "Nota zero",
        "ru": "Ноль",
    },
    "classreport.top_pattern": {
        "en": "Most common mistake",
        "es": "Error más frecuente",
        "pt": "Erro mais frequente",
        "ru": "Самая частая ошибка",
    },
    "classreport.flags": {
        "en": "Flags",
        "es": "Avisos",
        "pt": "Alertas",
        "ru": "Отметки",
    },
    "classreport.flags_title": {
        "en": "Autograder flags (timeouts, crashes, repairs)",
        "es": "Avisos del autocalificador (tiempo agotado, caídas, reparaciones)",
        "pt": "Alertas do corretor automático (tempo esgotado, falhas, reparos)",
        "ru": "Отметки автопроверки (превышение времени, сбои, исправления)",
    },
    "classreport.flag": {
        "en": "Flag",
        "es": "Aviso",
        "pt": "Alerta",
        "ru": "Отметка",
    },
    "classreport.count": {
        "en": "Count",
        "es": "Cantidad",
        "pt": "Quantidade",
        "ru": "Количество",
    },
    "classreport.unreadable": {
        "en": "autograded notebook missing or unreadable",
        "es": "cuaderno autocalificado ausente o ilegible",
        "pt": "notebook corrigido ausente ou ilegível",
        "ru": "проверенный блокнот отсутствует или не читается",
    },
    "classreport.optional": {
        "en": "optional, 0 points: the share of checks passed",
        "es": "opcional, 0 puntos: la fracción de comprobaciones superadas",
        "pt": "opcional, 0 pontos: a fração de verificações corretas",
        "ru": "необязательное, 0 баллов: доля пройденных проверок",
    },
    "classreport.mean_of": {
        "en": "mean {mean} of {points}",
        "es": "media {mean} de {points}",
        "pt": "média {mean} de {points}",
        "ru": "в среднем {mean} из {points}",
    },
    "classreport.distribution": {
        "en": "Score distribution",
        "es": "Distribución de puntuaciones",
        "pt": "Distribuição das pontuações",
        "ru": "Распределение баллов",
    },
    "classreport.patterns": {
        "en": "Mistake patterns",
        "es": "Patrones de error",
        "pt": "Padrões de erro",
        "ru": "Закономерности ошибок",
    },
    "classreport.no_patterns": {
        "en": "No wrong values to classify.",
        "es": "No hay valores incorrectos que clasificar.",
        "pt": "Não há valores errados para classificar.",
        "ru": "Неверных значений для классификации нет.",
    },
    "classreport.raised": {
        "en": "raised an exception",
        "es": "lanzó una excepción",
        "pt": "lançou uma exceção",
        "ru": "выбросило исключение",
    },
    "classreport.unanswered": {
        "en": "unanswered",
        "es": "sin responder",
        "pt": "sem resposta",
        "ru": "без ответа",
    },
    "classreport.example": {
        "en": "An example of “{pattern}” (anonymized)",
        "es": "Un ejemplo de «{pattern}» (anonimizado)",
        "pt": "Um exemplo de “{pattern}” (anonimizado)",
        "ru": "Пример ошибки «{pattern}» (обезличен)",
    },
    "classreport.pattern.none": {
        "en": "None returned",
        "es": "devuelve None",
        "pt": "devolve None",
        "ru": "возвращает None",
    },
    "classreport.pattern.shape": {
        "en": "wrong shape",
        "es": "forma incorrecta",
        "pt": "formato errado",
        "ru": "неверная форма",
    },
    "classreport.pattern.sign": {
        "en": "wrong sign",
        "es": "signo cambiado",
        "pt": "sinal trocado",
        "ru": "неверный знак",
    },
    "classreport.pattern.scale": {
        "en": "constant factor",
        "es": "factor constante",
        "pt": "fator constante",
        "ru": "постоянный множитель",
    },
    "classreport.pattern.partial": {
        "en": "part of the target",
        "es": "parte del objetivo",
        "pt": "parte do alvo",
        "ru": "часть цели",
    },
    "classreport.pattern.swapped": {
        "en": "gradients swapped",
        "es": "gradientes intercambiados",
        "pt": "gradientes trocados",
        "ru": "градиенты перепутаны",
    },
    "classreport.pattern.stale": {
        "en": "value at another point",
        "es": "valor en otro punto",
        "pt": "valor em outro ponto",
        "ru": "значение в другой точке",
    },
    "classreport.pattern.not_finite": {
        "en": "NaN or infinity",
        "es": "NaN o infinito",
        "pt": "NaN ou infinito",
        "ru": "NaN или бесконечность",
    },
    "classreport.pattern.precision": {
        "en": "float32 precision",
        "es": "precisión de float32",
        "pt": "precisão de float32",
        "ru": "точность float32",
    },
    "classreport.pattern.other": {
        "en": "other",
        "es": "otro",
        "pt": "outro",
        "ru": "другое",
    },
    # ----- finite differences ----------------------------------------------------------------
    "fd.mismatch": {
        "en": "Your gradient disagrees with central finite differences of the function: along "
              "a random direction it predicts a slope of {got}, the function changes at a "
              "rate of {expected}.",
        "es": "Tu gradiente no concuerda con las diferencias finitas centrales de la función: "
              "en una dirección aleatoria predice una pendiente de {got}, y la función cambia "
              "a razón de {expected}.",
        "pt": "O seu gradiente não bate com as diferenças finitas centrais da função: numa "
              "direção aleatória ele prevê uma inclinação de {got}, e a função varia a uma "
              "taxa de {expected}.",
        "ru": "Ваш градиент не согласуется с центральными конечными разностями функции: вдоль "
              "случайного направления он предсказывает наклон {got}, а функция меняется со "
              "скоростью {expected}.",
    },
    "fd.ok": {
        "en": "Agrees with central finite differences (slope {expected}).",
        "es": "Concuerda con las diferencias finitas centrales (pendiente {expected}).",
        "pt": "Bate com as diferenças finitas centrais (inclinação {expected}).",
        "ru": "Согласуется с центральными конечными разностями (наклон {expected}).",
    },
    "fd.unusable": {
        "en": "Not possible: your result could not be used as a gradient (see the other checks).",
        "es": "No es posible: tu resultado no se pudo usar como gradiente (mira las otras "
              "comprobaciones).",
        "pt": "Não foi possível: o seu resultado não pôde ser usado como gradiente (veja as "
              "outras verificações).",
        "ru": "Невозможно: ваш результат нельзя использовать как градиент (см. другие проверки).",
    },
    # ----- why a gradient is None ------------------------------------------------------------
    "none.why": {
        "en": "Why None?",
        "es": "¿Por qué None?",
        "pt": "Por que None?",
        "ru": "Почему None?",
    },
    "none.no_return": {
        "en": "Your function returned None and never called `tape.gradient`: did you forget "
              "the `return` statement?",
        "es": "Tu función devolvió None y nunca llamó a `tape.gradient`: ¿olvidaste la "
              "instrucción `return`?",
        "pt": "A sua função devolveu None e nunca chamou `tape.gradient`: esqueceu o `return`?",
        "ru": "Ваша функция вернула None и ни разу не вызвала `tape.gradient`: может быть, "
              "забыт оператор `return`?",
    },
    "none.lost_result": {
        "en": "`tape.gradient` computed a gradient, but your function returned None: did you "
              "forget to `return` it?",
        "es": "`tape.gradient` calculó un gradiente, pero tu función devolvió None: "
              "¿olvidaste devolverlo con `return`?",
        "pt": "`tape.gradient` calculou um gradiente, mas a sua função devolveu None: "
              "esqueceu de devolvê-lo com `return`?",
        "ru": "`tape.gradient` вычислил градиент, но ваша функция вернула None: может быть, "
              "его забыли вернуть через `return`?",
    },
    "none.unwatched_tensor": {
        "en": "The tape did not watch this source: it is a tensor (for example a `tf.constant`), "
              "and a tape watches only trainable `tf.Variable`s by itself. Call "
              "`tape.watch(x)` inside the `with` block, or make it a `tf.Variable`.",
        "es": "La cinta no observaba esta fuente: es un tensor (por ejemplo, un "
              "`tf.constant`), y la cinta solo observa por sí misma las `tf.Variable` "
              "entrenables. Llama a `tape.watch(x)` dentro del bloque `with` o conviértela en "
              "una `tf.Variable`.",
        "pt": "A fita não estava observando esta fonte: ela é um tensor (por exemplo, um "
              "`tf.constant`), e a fita só observa sozinha as `tf.Variable` treináveis. Chame "
              "`tape.watch(x)` dentro do bloco `with` ou transforme-a numa `tf.Variable`.",
        "ru": "Лента не отслеживала этот источник: это тензор (например, `tf.constant`), а "
              "сама лента отслеживает только обучаемые `tf.Variable`. Вызовите "
              "`tape.watch(x)` внутри блока `with` или сделайте его `tf.Variable`.",
    },
    "none.variable_replaced": {
        "en": "If this was a `tf.Variable`, a line such as `x = x + 1` replaced it by a new "
              "tensor, which the tape does not watch. Change a variable in place with "
              "`x.assign_add(1)`.",
        "es": "Si era una `tf.Variable`, una línea como `x = x + 1` la sustituyó por un "
              "tensor nuevo, que la cinta no observa. Modifica una variable en su sitio con "
              "`x.assign_add(1)`.",
        "pt": "Se era uma `tf.Variable`, uma linha como `x = x + 1` a substituiu por um "
              "tensor novo, que a fita não observa. Altere uma variável no lugar com "
              "`x.assign_add(1)`.",
        "ru": "Если это была `tf.Variable`, то строка вроде `x = x + 1` заменила её новым "
              "тензором, который лента не отслеживает. Изменяйте переменную на месте: "
              "`x.assign_add(1)`.",
    },
    "none.non_trainable": {
        "en": "This variable was created with `trainable=False`, so the tape does not watch it "
              "by itself: call `tape.watch(v)`.",
        "es": "Esta variable se creó con `trainable=False`, así que la cinta no la observa por "
              "sí misma: llama a `tape.watch(v)`.",
        "pt": "Esta variável foi criada com `trainable=False`, então a fita não a observa "
              "sozinha: chame `tape.watch(v)`.",
        "ru": "Эта переменная создана с `trainable=False`, поэтому лента сама её не "
              "отслеживает: вызовите `tape.watch(v)`.",
    },
    "none.integer_dtype": {
        "en": "The source has an integer dtype ({dtype}); gradients exist only for "
              "floating-point values. Use a float, e.g. `tf.Variable(2.0)` instead of "
              "`tf.Variable(2)`.",
        "es": "La fuente tiene un tipo de dato entero (`dtype` {dtype}); solo hay gradientes "
              "para valores de coma flotante. Usa un número de coma flotante, p. ej. "
              "`tf.Variable(2.0)` en vez de `tf.Variable(2)`.",
        "pt": "A fonte tem um tipo de dado inteiro (`dtype` {dtype}); só existem gradientes "
              "para valores de ponto flutuante. Use um número de ponto flutuante, p. ex. "
              "`tf.Variable(2.0)` em vez de `tf.Variable(2)`.",
        "ru": "У источника целочисленный тип данных (`dtype` {dtype}); градиенты существуют "
              "только для чисел с плавающей точкой. Используйте вещественное число, например "
              "`tf.Variable(2.0)` вместо `tf.Variable(2)`.",
    },
    "none.numpy_detour": {
        "en": "The target was computed outside the tape: it is a NumPy value ({kind}), so the "
              "tape has no record of how it depends on the source. Use minitape operations "
              "(`tf.sin`, `tf.reduce_sum`, ...) instead of NumPy functions or `.numpy()`.",
        "es": "El objetivo se calculó fuera de la cinta: es un valor de NumPy ({kind}), así "
              "que la cinta no grabó cómo depende de la fuente. Usa operaciones "
              "de minitape (`tf.sin`, `tf.reduce_sum`, ...) en lugar de funciones de NumPy o "
              "`.numpy()`.",
        "pt": "O alvo foi calculado fora da fita: é um valor do NumPy ({kind}), então a fita "
              "não gravou como ele depende da fonte. Use operações do minitape (`tf.sin`, "
              "`tf.reduce_sum`, ...) em vez de funções do NumPy ou `.numpy()`.",
        "ru": "Цель вычислена вне ленты: это значение NumPy ({kind}), поэтому лента не "
              "знает, как оно зависит от источника. Используйте операции minitape "
              "(`tf.sin`, `tf.reduce_sum`, ...) вместо функций NumPy и `.numpy()`.",
    },
    "none.unconnected": {
        "en": "The target does not depend on this source through operations the tape "
              "recorded. Common causes: a detour through NumPy (`np.sin(x)`, `x.numpy()`), "
              "a stateful update (`v.assign(...)`) between source and target, or computing "
              "the target outside the `with tf.GradientTape() as tape:` block.",
        "es": "El objetivo no depende de esta fuente a través de operaciones que la cinta "
              "haya grabado. Causas habituales: un desvío por NumPy (`np.sin(x)`, "
              "`x.numpy()`), una actualización con estado (`v.assign(...)`) entre la fuente y "
              "el objetivo, o calcular el objetivo fuera del bloque "
              "`with tf.GradientTape() as tape:`.",
        "pt": "O alvo não depende desta fonte por meio de operações que a fita gravou. "
              "Causas comuns: um desvio pelo NumPy (`np.sin(x)`, `x.numpy()`), uma "
              "atualização com estado (`v.assign(...)`) entre a fonte e o alvo, ou calcular "
              "o alvo fora do bloco `with tf.GradientTape() as tape:`.",
        "ru": "Цель не зависит от этого источника через операции, записанные лентой. Частые "
              "причины: обход через NumPy (`np.sin(x)`, `x.numpy()`), изменение состояния "
              "(`v.assign(...)`) между источником и целью или вычисление цели вне блока "
              "`with tf.GradientTape() as tape:`.",
    },
    "none.generic": {
        "en": "A gradient is None when the tape has no path from the target back to the "
              "source: the source was not watched (a tensor, or a variable replaced by "
              "`x = x + 1`), it has an integer dtype, or the path went through NumPy or a "
              "stateful `assign`.",
        "es": "Un gradiente es None cuando la cinta no tiene un camino del objetivo a la "
              "fuente: la fuente no estaba observada (un tensor, o una variable sustituida "
              "por `x = x + 1`), tiene un tipo de dato entero o el camino pasó por NumPy o por un "
              "`assign` con estado.",
        "pt": "Um gradiente é None quando a fita não tem um caminho do alvo até a fonte: a "
              "fonte não estava sendo observada (um tensor, ou uma variável substituída por "
              "`x = x + 1`), tem tipo de dado inteiro, ou o caminho passou pelo NumPy ou por um "
              "`assign` com estado.",
        "ru": "Градиент равен None, когда у ленты нет пути от цели к источнику: источник не "
              "отслеживался (тензор или переменная, заменённая строкой `x = x + 1`), имеет "
              "целочисленный тип данных или путь прошёл через NumPy либо через `assign`.",
    },
    # issue 24 (bounded outputs, grader.bounds): what replaces the outputs dropped from a cell
    "output.truncated_cell": {
        "en": "[Outputs not kept: {dropped} ({bytes} bytes); a cell keeps at most {max_count} outputs and {max_kb} KB]",
        "es": "[Salidas no conservadas: {dropped} ({bytes} bytes); una celda conserva como máximo {max_count} salidas y {max_kb} KB]",
        "pt": "[Saídas não guardadas: {dropped} ({bytes} bytes); uma célula guarda no máximo {max_count} saídas e {max_kb} KB]",
        "ru": "[Не сохранено выводов: {dropped} ({bytes} байт); ячейка хранит не более {max_count} выводов и {max_kb} КБ]",
    },
    "output.truncated_notebook": {
        "en": "[Outputs not kept: {dropped}, in this cell and the cells after it; the notebook's outputs reached the limit ({max_count} outputs, {max_kb} KB)]",
        "es": "[Salidas no conservadas: {dropped}, en esta celda y en las siguientes; las salidas del cuaderno alcanzaron el límite ({max_count} salidas, {max_kb} KB)]",
        "pt": "[Saídas não guardadas: {dropped}, nesta célula e nas seguintes; as saídas do notebook atingiram o limite ({max_count} saídas, {max_kb} KB)]",
        "ru": "[Не сохранено выводов: {dropped} — в этой ячейке и в следующих; выводы блокнота достигли предела ({max_count} выводов, {max_kb} КБ)]",
    },
    "output.malformed_message": {
        "en": "[an output of this cell could not be read and was dropped: {why}]",
        "es": "[una salida de esta celda no se pudo leer y se descartó: {why}]",
        "pt": "[uma saída desta célula não pôde ser lida e foi descartada: {why}]",
        "ru": "[вывод этой ячейки не удалось прочитать, он отброшен: {why}]",
    },
}
