import torch


def step(model, batch, optimizer):
    loss = model(batch).mean()
    loss.backward()
    optimizer.step()
    return loss.item()
