# Chaves de idempotência: um pedido enviado de novo com a mesma chave é respondido uma só vez.
err-idem-key-invalid = O cabeçalho Idempotency-Key deve ter de 1 a 200 caracteres ASCII visíveis (sem caracteres de controlo nem acentos).
err-idem-key-mismatch = Esta Idempotency-Key já foi usada, nas últimas 24 horas, nesta operação com outro conteúdo. Use uma chave nova para um pedido novo.
err-idem-form-mismatch = Este formulário já foi enviado, com outros valores (Idempotency-Key). Recarregue a página para o enviar de novo.
err-idem-busy = Este pedido (Idempotency-Key) ainda está a ser processado. Tente de novo daqui a um momento para obter a resposta.
err-idem-lost = Este pedido (Idempotency-Key) já foi aplicado, mas a resposta perdeu-se. Não o envie outra vez: verifique antes o resultado.
err-idem-too-large = Este pedido (Idempotency-Key) já foi aplicado; a resposta era grande demais para ser guardada. Não o envie outra vez: verifique antes o resultado.
