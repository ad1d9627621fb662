"""The HTTP edge: request schemas and their loading, the operations, problems, sealing, CORS, the spec."""
