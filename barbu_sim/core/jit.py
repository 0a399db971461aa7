"""numba's ``njit`` for this package, with a disk cache that follows each kernel's dependencies.

numba keys a cached kernel on its own source file only.  A kernel that inlines a
helper from another module, or bakes in another module's constant, would be read
back from the cache after that module changed: old results, or a crash when a
work-space size moved.  Importing this module puts two cache locators in front of
numba's own, for this package's files only: they keep numba's cache places (beside
the sources, or under ``NUMBA_CACHE_DIR``) but stamp each cache index with
:func:`barbu_sim.core.codestamp.code_stamp` of the kernel's module, which covers every
package module it imports.  numba treats an index with another stamp as empty, so a
kernel whose code or dependencies changed is compiled again and its cache rewritten:
never read stale.

Every module of this package that caches kernels takes ``njit`` from here (a test
checks that each cached kernel uses these locators).  A user's plugin keeps numba's
own locators.
"""

from __future__ import annotations

from numba import njit
from numba.core import caching

from .codestamp import code_stamp, in_package

__all__ = ["njit", "install_dependency_stamps"]


def _locator_base(name: str):
    """numba's locator class ``name`` (public since numba 0.61, with a leading underscore before)."""
    return getattr(caching, name, None) or getattr(caching, f"_{name}")


class _FollowsDependencies:
    """Mixin: this package's files only; the cache stamp covers the module's package imports."""

    def get_source_stamp(self):
        return (super().get_source_stamp(), code_stamp(self._py_file))

    @classmethod
    def from_function(cls, py_func, py_file):
        if not in_package(py_file):
            return None
        return super().from_function(py_func, py_file)


class DependencyStampedUserCache(_FollowsDependencies, _locator_base("UserProvidedCacheLocator")):
    """``NUMBA_CACHE_DIR`` set: numba's place under it, with the dependency stamp."""


class DependencyStampedInTreeCache(_FollowsDependencies, _locator_base("InTreeCacheLocator")):
    """The default: ``__pycache__`` beside the source, with the dependency stamp."""


class DependencyStampedUserWideCache(_FollowsDependencies, _locator_base("UserWideCacheLocator")):
    """``__pycache__`` not writable (a read-only install): numba's per-user place, with the dependency stamp."""


LOCATORS = (DependencyStampedUserCache, DependencyStampedInTreeCache, DependencyStampedUserWideCache)


def install_dependency_stamps() -> None:
    """Put the package's locators first in numba's list (once; later imports find them there)."""
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")
    classes = impl._locator_classes
    if classes[:len(LOCATORS)] != list(LOCATORS):
        classes[:] = [*LOCATORS, *(c for c in classes if c not in LOCATORS)]


install_dependency_stamps()
