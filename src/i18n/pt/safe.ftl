# Ações que terminam um lugar pedidas duas vezes, o recibo da saída, os ficheiros dos relatórios.

safe-cash-out-confirm-title = Trocar as fichas de { $alias } e libertar o lugar?
safe-cash-out-confirm-help = Ainda nada foi alterado. Confirme para libertar o lugar e chamar o jogador seguinte.
safe-cash-out-confirm-action = Confirmar a saída
safe-cash-out-keep = O jogador fica sentado
safe-receipt-title = { $alias } trocou as fichas e saiu
safe-receipt-close = Fechar o recibo
safe-receipt-stack = Fichas trocadas
safe-receipt-bought-in = Total comprado
safe-receipt-time = Tempo de jogo
safe-receipt-result = Resultado
safe-receipts-title = Saídas com troca de fichas
safe-receipts-none = Nenhuma saída registada.
safe-receipt-col-when = Quando
safe-receipt-col-table = Mesa · lugar
safe-leave-confirm = { $alias } vai deixar o lugar { $seat } da mesa { $table }: ainda nada foi alterado.
safe-leave-confirm-action = Confirmar: deixa a mesa
safe-removal-confirm = Toque de novo para retirar as fichas
