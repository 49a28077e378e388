"""Audit log and denial tracking."""
