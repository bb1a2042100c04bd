from numstab.stats import log_sigmoid, logsumexp, softmax, variance

__all__ = ["variance", "logsumexp", "softmax", "log_sigmoid"]
