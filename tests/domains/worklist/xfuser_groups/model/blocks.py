from xfuser.core.distributed import get_sequence_parallel_rank, get_sequence_parallel_world_size


def shard_tokens(tokens):
    n = get_sequence_parallel_world_size()
    return tokens[get_sequence_parallel_rank()::n]
