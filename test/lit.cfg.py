# -*- Python -*-
# lit configuration for the tile-opt test suite.

import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "TILE"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py", "Inputs", "lib"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tile_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%tile_src_root", config.tile_src_root))
config.substitutions.append(("%tile_obj_root", config.tile_obj_root))
config.substitutions.append(("%tile_tools_dir", config.tile_tools_dir))
# A host-only libcuda.so.1 (test/lib/FakeCuda) for runtime tests without a GPU.
config.substitutions.append(
    ("%fake_cuda_dir", os.path.join(config.tile_obj_root, "test", "fake-cuda"))
)

# Variables captured in one CHECK-LABEL block do not leak into the next.
config.environment["FILECHECK_OPTS"] = "--enable-var-scope"

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.tile_tools_dir, config.llvm_tools_dir]
tools = [ToolSubst(t, unresolved="fatal") for t in ("tile-opt", "tile-run", "tile-prove", "tile-gpu-run", "tile-capi-test", "tile-runtime-capi-test")]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# Stock mlir-opt (Debian's mlir-22-tools) with the project's plugin loaded as
# both dialect and pass plugin (lib/Plugin).
tile_plugin = os.path.join(config.tile_obj_root, "lib", "TilePlugin.so")
config.substitutions.append(("%mlir_opt", os.path.join(config.llvm_tools_dir, "mlir-opt")))
config.substitutions.append(
    ("%tile_plugins", "--load-dialect-plugin=%s --load-pass-plugin=%s" % (tile_plugin, tile_plugin))
)
config.substitutions.append(("%tile_plugin", tile_plugin))

# Configure and build a program of a user's own against an install, with the
# build's CMake, generator, compiler and MLIR (test/Install).
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(
    (
        "%configure_consumer",
        "%s -G '%s' -DCMAKE_MAKE_PROGRAM=%s -DCMAKE_CXX_COMPILER=%s "
        "-DCMAKE_EXE_LINKER_FLAGS='%s' -DMLIR_DIR=%s"
        % (
            config.cmake_command,
            config.cmake_generator,
            config.cmake_make_program,
            config.cxx_compiler,
            config.exe_linker_flags,
            config.mlir_dir,
        ),
    )
)

# A Python with numpy (Debian's python3-numpy), for the tests that make and
# read .npy files; one with PyTorch too (python3-torch), for the Python
# package. install-deps.sh installs both when it can.
def python_with(modules):
    import subprocess
    import sys

    for python in (sys.executable, "/usr/bin/python3"):
        try:
            if python and subprocess.run([python, "-c", "import " + modules],
                                         capture_output=True, timeout=120).returncode == 0:
                return python
        except (OSError, subprocess.SubprocessError):
            pass
    return None


for feature, modules in (("numpy", "numpy"), ("torch", "numpy, torch")):
    python = python_with(modules)
    if python:
        config.available_features.add(feature)
        config.substitutions.append(("%" + feature + "_python", python))

# Optional pieces are lit features; tests that need them say REQUIRES.
if config.tile_have_z3:
    config.available_features.add("z3")
# PTX and cubins need the CUDA toolkit the build found (ptxas and libdevice).
if config.cuda_toolkit_dir and os.path.isdir(config.cuda_toolkit_dir):
    config.available_features.add("cuda-toolkit")
# hsaco needs the rocm-device-libs bitcode (the build links it into its
# rocm-toolkit directory).
if os.path.isdir(os.path.join(config.tile_obj_root, "rocm-toolkit", "amdgcn", "bitcode")):
    config.available_features.add("rocm-device-libs")


def cuda_device_present():
    """A CUDA driver and at least one device: the GPU integration tests run."""
    if os.environ.get("TILE_DISABLE_CUDA_TESTS"):
        return False
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        import subprocess

        out = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=20)
        return out.returncode == 0 and "GPU" in out.stdout
    except (OSError, subprocess.SubprocessError):
        return False


if cuda_device_present():
    config.available_features.add("cuda")
