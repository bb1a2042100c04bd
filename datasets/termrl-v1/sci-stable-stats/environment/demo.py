from numstab import log_sigmoid, logsumexp, softmax, variance

print("variance of sensor readings:", variance([1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16]))
print("logsumexp of log-likelihoods:", logsumexp([-1200.0, -1201.5, -1199.25]))
print("softmax of scores:", softmax([800.0, 799.0, 0.0]))
print("log_sigmoid(-800):", log_sigmoid(-800.0))
