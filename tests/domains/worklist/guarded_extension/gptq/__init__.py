from .select import select_quant_linear
