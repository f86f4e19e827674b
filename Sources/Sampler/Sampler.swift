// The sampler: computes rates and figures from two consecutive readings.
