"""Work off the GUI thread: the worker pool, the index worker, the backend that owns both, the folder watcher
and the PDF page renderer. Results come back as signals on the GUI thread.
"""
