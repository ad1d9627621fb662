"""Chkobba rules-adjudication service."""
