"""The checks of a call's tensors, shared by the GPU and emulation paths."""


def check_tensor(torch, where, tensor, shape, dtype_name):
    """Raises TypeError or ValueError, naming `where`, unless `tensor` is a
    contiguous torch.Tensor of `shape` and dtype `dtype_name`."""
    if not isinstance(tensor, torch.Tensor):
        raise TypeError("%s: expected a torch.Tensor, got %s"
                        % (where, type(tensor).__name__))
    if tuple(tensor.shape) != tuple(shape):
        raise ValueError("%s: expected shape %s, got %s"
                         % (where, list(shape), list(tensor.shape)))
    if tensor.dtype != getattr(torch, dtype_name):
        raise TypeError("%s: expected dtype torch.%s, got %s"
                        % (where, dtype_name, tensor.dtype))
    if not tensor.is_contiguous():
        raise ValueError("%s: expected a contiguous tensor (call "
                         ".contiguous())" % where)


def check_count(program, specs, given, what="tensors"):
    """Raises TypeError unless `given` matches the number of `specs`."""
    if given != len(specs):
        raise TypeError("%s takes %d %s (%s), got %d" % (
            program, len(specs), what, ", ".join(s.name for s in specs),
            given))
