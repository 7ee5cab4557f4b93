from app.mesh import MeshRender

if __name__ == "__main__":
    print(MeshRender().render(None, None))
