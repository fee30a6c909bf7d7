"""`cmake --install` puts the module into the prefix's site-packages, where it finds the installed
plugins and inputs (not the build tree's): run from elsewhere, the installed module gives the
Eyeriss-like single core's 114999 cycles (goldens.md) and reads the bundled hardware from
PREFIX/share/stream/inputs."""

import os
import pathlib
import shutil
import subprocess
import sys
import sysconfig

PROBE = """
import stream_cpp
r = stream_cpp.evaluate_mapping("hardware/eyeriss_like_single_core.yaml", "workload/2conv_1_8_32_32_16_32_3.onnx", "out")
print(r.total_latency)
print(stream_cpp.load_accelerator("hardware/tpu_like_quad_core.yaml")["file"])
print(stream_cpp.__file__)
"""


def test_installed_module_uses_the_installed_tree(scratch):
    prefix = scratch / "prefix"
    build = os.environ["STREAM_BUILD_DIR"]
    subprocess.run([os.environ.get("STREAM_CMAKE", "cmake"), "--install", build, "--prefix", str(prefix)],
                   check=True, capture_output=True)
    version = sysconfig.get_python_version()
    site = prefix / "lib" / f"python{version}" / "site-packages"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(site)}
    work = scratch / "elsewhere"
    work.mkdir()
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=work, env=env, capture_output=True, text=True, check=True)
    latency, hardware_file, module_file = done.stdout.split()
    assert latency == "114999"
    assert pathlib.Path(hardware_file) == prefix / "share" / "stream" / "inputs" / "hardware" / "tpu_like_quad_core.yaml"
    assert pathlib.Path(module_file).parent == site
    shutil.rmtree(prefix)  # a few hundred MB of libraries with debug information
