"""Ocelot's in-process API from Python (ctypes over ocelot/ocelot_c.h).

Run the program under `ocelot run` (which puts Ocelot's libcudart.so.13 and libcuda.so.1 in front):

    import ocelot
    handle = ocelot.add_instrumentor("bbcount", "mode=per-thread")
    subscription = ocelot.subscribe(lambda profile: print(profile["kernel"], profile["execution"]))
    ... launch kernels (CuPy, Numba, Triton, PyTorch, ctypes over libcuda) ...
    ocelot.flush_profiles()
    ocelot.unsubscribe(subscription)
    ocelot.remove_instrumentor(handle)

Profiles arrive as dictionaries in the format of `ocelot run -o` (docs/profile.schema.json), on
Ocelot's profile thread, as soon as each launch's kernel has finished.
"""
import ctypes
import json
import threading

__all__ = ["OcelotError", "add_instrumentor", "remove_instrumentor", "remove_all_instrumentors",
           "active_instrumentors", "subscribe", "unsubscribe", "flush_profiles"]


class OcelotError(RuntimeError):
    """Ocelot's libcudart.so.13 is not loaded, or it refused a request."""


_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_void_p)
_library = None
_library_lock = threading.Lock()
_callbacks = {}  # subscription handle -> the ctypes callback, which must outlive the subscription


def _lib():
    global _library
    with _library_lock:
        if _library is not None:
            return _library
        try:
            library = ctypes.CDLL("libcudart.so.13")
        except OSError as e:
            raise OcelotError("cannot load libcudart.so.13 (run the program under `ocelot run`): %s" % e)
        if not hasattr(library, "ocelot_add_instrumentor"):
            raise OcelotError("the libcudart.so.13 this process loaded is NVIDIA's, not Ocelot's "
                              "(run the program under `ocelot run`)")
        library.ocelot_add_instrumentor.restype = ctypes.c_uint64
        library.ocelot_add_instrumentor.argtypes = [ctypes.c_char_p, ctypes.c_char_p,
                                                    ctypes.c_char_p, ctypes.c_size_t]
        library.ocelot_remove_instrumentor.restype = ctypes.c_int
        library.ocelot_remove_instrumentor.argtypes = [ctypes.c_uint64]
        library.ocelot_remove_all_instrumentors.restype = None
        library.ocelot_remove_all_instrumentors.argtypes = []
        library.ocelot_active_instrumentors.restype = ctypes.c_size_t
        library.ocelot_active_instrumentors.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
        library.ocelot_subscribe.restype = ctypes.c_uint64
        library.ocelot_subscribe.argtypes = [_CALLBACK, ctypes.c_void_p]
        library.ocelot_unsubscribe.restype = ctypes.c_int
        library.ocelot_unsubscribe.argtypes = [ctypes.c_uint64]
        library.ocelot_flush_profiles.restype = None
        library.ocelot_flush_profiles.argtypes = []
        _library = library
        return library


def add_instrumentor(name, options=""):
    """Activates instrumentor `name` with options "key=value:key=value"; returns its handle."""
    error = ctypes.create_string_buffer(1024)
    handle = _lib().ocelot_add_instrumentor(name.encode(), options.encode(), error, len(error))
    if handle == 0:
        raise OcelotError("cannot add instrumentor %r: %s" % (name, error.value.decode(errors="replace")))
    return handle


def remove_instrumentor(handle):
    """Deactivates an instrumentor from the next launch on; False for an unknown handle."""
    return _lib().ocelot_remove_instrumentor(handle) == 1


def remove_all_instrumentors():
    _lib().ocelot_remove_all_instrumentors()


def active_instrumentors():
    """"name options" of each active instrumentor."""
    library = _lib()
    size = library.ocelot_active_instrumentors(None, 0)
    buffer = ctypes.create_string_buffer(size + 1)
    library.ocelot_active_instrumentors(buffer, len(buffer))
    return [line for line in buffer.value.decode().split("\n") if line]


def subscribe(callback):
    """Calls `callback(profile)` with every profile from now on (a dict); returns a handle.
    An exception the callback raises is printed and does not stop later profiles."""
    def deliver(text, _user_data):
        try:
            callback(json.loads(text.decode()))
        except Exception as e:  # noqa: BLE001 - the profile thread must go on
            print("ocelot: profile callback failed: %r" % (e,))
    native = _CALLBACK(deliver)
    handle = _lib().ocelot_subscribe(native, None)
    if handle == 0:
        raise OcelotError("cannot subscribe")
    _callbacks[handle] = native
    return handle


def unsubscribe(handle):
    """After this returns the callback is not running and will not be called again."""
    found = _lib().ocelot_unsubscribe(handle) == 1
    _callbacks.pop(handle, None)
    return found


def flush_profiles():
    """Blocks until the profiles of every launch made before the call have been delivered."""
    _lib().ocelot_flush_profiles()
