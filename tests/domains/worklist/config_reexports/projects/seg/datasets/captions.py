from datasets import Dataset


class CaptionSet:
    def __init__(self, rows):
        self.data = Dataset.from_list(rows)

    def __getitem__(self, i):
        return self.data[i]
