"""tf.errors: OpError and its subclasses by TensorFlow's names and codes. The engine's errors arrive as these."""
from flowscope import _flowscope as _C
from flowscope._missing import missing_attribute

OK, CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND, ALREADY_EXISTS = range(7)
PERMISSION_DENIED, RESOURCE_EXHAUSTED, FAILED_PRECONDITION, ABORTED, OUT_OF_RANGE = range(7, 12)
UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS, UNAUTHENTICATED = range(12, 17)


class OpError(Exception):
    """An op failed: `message` says why, `op` and `node_def` name it where known, `error_code` is its code."""

    def __init__(self, node_def, op, message, *args):
        super().__init__(message)
        self._node_def = node_def
        self._op = op
        self._message = message
        self._error_code = args[0] if args else getattr(type(self), "_code", UNKNOWN)

    message = property(lambda self: self._message)
    op = property(lambda self: self._op)
    node_def = property(lambda self: self._node_def)
    error_code = property(lambda self: self._error_code)

    def __str__(self):
        return self._message


def _make(name, code, doc):
    def __init__(self, node_def, op, message, *args):
        OpError.__init__(self, node_def, op, message, code)

    return type(name, (OpError,), {"__init__": __init__, "__doc__": doc, "_code": code, "__module__": __name__})


CancelledError = _make("CancelledError", CANCELLED, "An operation was cancelled.")
UnknownError = _make("UnknownError", UNKNOWN, "An unknown error.")
InvalidArgumentError = _make("InvalidArgumentError", INVALID_ARGUMENT, "An op received an invalid argument.")
DeadlineExceededError = _make("DeadlineExceededError", DEADLINE_EXCEEDED, "A deadline expired.")
NotFoundError = _make("NotFoundError", NOT_FOUND, "A requested entity was not found.")
AlreadyExistsError = _make("AlreadyExistsError", ALREADY_EXISTS, "An entity already exists.")
PermissionDeniedError = _make("PermissionDeniedError", PERMISSION_DENIED, "Permission denied.")
ResourceExhaustedError = _make("ResourceExhaustedError", RESOURCE_EXHAUSTED, "A resource was exhausted.")
FailedPreconditionError = _make("FailedPreconditionError", FAILED_PRECONDITION, "A precondition failed.")
AbortedError = _make("AbortedError", ABORTED, "An operation was aborted.")
OutOfRangeError = _make("OutOfRangeError", OUT_OF_RANGE, "An operation went past the valid range.")
UnimplementedError = _make("UnimplementedError", UNIMPLEMENTED, "An operation is not implemented.")
InternalError = _make("InternalError", INTERNAL, "An internal error.")
UnavailableError = _make("UnavailableError", UNAVAILABLE, "A service is unavailable.")
DataLossError = _make("DataLossError", DATA_LOSS, "Data was lost or corrupted.")
UnauthenticatedError = _make("UnauthenticatedError", UNAUTHENTICATED, "The request lacks credentials.")


class OperatorNotAllowedInGraphError(TypeError):
    """A Python operation (bool(), iteration) on a symbolic tensor that only eager execution allows."""


_C._register_error_classes({cls.__name__: cls for cls in OpError.__subclasses__()})

__getattr__ = missing_attribute(__name__, "tf.errors")
