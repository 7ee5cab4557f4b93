from pkg.models.wan.use import run

if __name__ == "__main__":
    run()
