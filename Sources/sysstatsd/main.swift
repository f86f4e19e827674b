import Sampler
