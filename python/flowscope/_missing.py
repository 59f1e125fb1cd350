"""Names Flowscope does not have raise AttributeError naming them: never a silent substitute (PEP 562)."""


def missing_attribute(module_name, public_name):
    def __getattr__(name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise AttributeError(
            "module '%s' has no attribute '%s' (%s.%s is not in Flowscope's TensorFlow subset)"
            % (module_name, name, public_name, name))

    return __getattr__
