"""examples/python/evaluate_2conv.py runs as documented and prints the goldens (14344 on the
TPU-like quad core, 114999 on the Eyeriss-like single core; goldens.md)."""

import subprocess
import sys


def test_example_script_prints_the_goldens(scratch, source_dir):
    script = source_dir / "examples" / "python" / "evaluate_2conv.py"
    done = subprocess.run([sys.executable, str(script), str(scratch)], capture_output=True, text=True, check=True)
    lines = done.stdout.splitlines()
    assert lines[0].startswith("hardware/tpu_like_quad_core.yaml: 14344 cycles, 1.89112e+07 pJ")
    assert any(l.startswith("hardware/eyeriss_like_single_core.yaml: 114999 cycles") for l in lines)
    assert "group 0: 14344 cycles, OPTIMAL" in done.stdout
