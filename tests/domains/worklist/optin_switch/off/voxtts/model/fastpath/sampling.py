def greedy():
    return {"temperature": 0.0}
