from .scan import selective_scan
