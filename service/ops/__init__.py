"""Operations: metrics, health and the served contract."""
