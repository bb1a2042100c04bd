from .model import Ridge
from .preprocess import Standardizer


class Pipeline:
    def __init__(self, alpha, scaler=None):
        self.alpha = alpha
        self.scaler = scaler

    def fit(self, X, y):
        if self.scaler is None:
            self.scaler = Standardizer().fit(X)
        self.ridge = Ridge(self.alpha).fit(self.scaler.transform(X), y)
        return self

    def predict(self, X):
        return self.ridge.predict(self.scaler.transform(X))
