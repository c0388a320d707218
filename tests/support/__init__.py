"""Test helpers shared by several test packages (local servers, fixtures as plain functions)."""
