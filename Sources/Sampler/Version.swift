public let sysstatsVersion = "0.1.0"
