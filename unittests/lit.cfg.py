# -*- Python -*-
# lit configuration that runs every GoogleTest binary of the unit tests, one
# lit test per gtest case.

import os

import lit.formats

config.name = "TILE-Unit"
config.suffixes = []
config.test_source_root = config.tile_unittests_dir
config.test_exec_root = config.tile_unittests_dir
config.test_format = lit.formats.GoogleTest(".", "Tests")
