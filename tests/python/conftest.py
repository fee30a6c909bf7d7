"""Shared fixtures: a fresh scratch directory per test under build/test_scratch/python."""

import os
import pathlib
import shutil

import pytest


@pytest.fixture
def scratch(request) -> pathlib.Path:
    root = pathlib.Path(os.environ.get("STREAM_BUILD_DIR", "build")) / "test_scratch" / "python"
    path = root / request.node.module.__name__ / request.node.name
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    return path


@pytest.fixture
def source_dir() -> pathlib.Path:
    return pathlib.Path(os.environ.get("STREAM_SOURCE_DIR", pathlib.Path(__file__).parents[2]))
