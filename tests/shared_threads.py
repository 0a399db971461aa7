"""Running a parallel engine on one thread and on all of numba's, to check the results agree."""


def on_one_thread_and_all(make):
    """``make()`` on numba's one thread, then on all the threads numba had: both results, in that order."""
    from numba import get_num_threads, set_num_threads
    threads = get_num_threads()
    results = []
    try:
        for n in (1, threads):
            set_num_threads(n)
            results.append(make())
    finally:
        set_num_threads(threads)
    return results
