"""Controllers and flows: they connect views and models to the backend (the only GUI layer that does).

May import views, models, threads and the engine surface; views never import a controller.
"""
