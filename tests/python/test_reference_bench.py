"""`bench --reference JAX_SOURCE`: interpret mode's machine model measured beside weft. A JAX
tree is not on the test machines, so what is tested here is how a tree that cannot be used is
refused (at once, naming it) and that loading one leaves no stand-in of JAX behind."""

import sys

import pytest

from weft import _interpret_mode_reference as reference
from conftest import run_command


def test_python_m_weft_refuses_a_folder_without_the_reference_before_measuring(python_weft, tmp_path):
    status, out, err = run_command(*python_weft, "bench", "--quick", "--reference", str(tmp_path))
    assert status == 2, (out, err)
    assert out == ""
    assert str(tmp_path) in err and "shared_memory.py" in err and "vector_clock.py" in err, err


def test_the_executable_says_where_the_reference_is_measured(weft_binary, tmp_path):
    status, out, err = run_command(weft_binary, "bench", "--quick", "--reference", str(tmp_path))
    assert status == 2, (out, err)
    assert "python3 -m weft bench --reference" in err, err


def _tree(folder, shared_memory_text):
    interpret = folder / "jax" / "_src" / "pallas" / "mosaic" / "interpret"
    interpret.mkdir(parents=True)
    (interpret / "vector_clock.py").write_text("import numpy as np\n")
    (interpret / "race_detection_state.py").write_text("from jax._src import source_info_util\n")
    (interpret / "shared_memory.py").write_text(shared_memory_text)
    return folder


def test_a_version_that_needs_more_of_jax_is_named_with_the_version_measured(tmp_path):
    tree = _tree(tmp_path, "import jax._src.pallas.mosaic.interpret.params as params\n")
    with pytest.raises(reference.ReferenceUnusable, match=r"shared_memory\.py does not load without JAX.*b8d37576ce"):
        reference.load(str(tree))
    assert "jax" not in sys.modules and "jax._src" not in sys.modules


def test_a_tree_that_loads_is_read_through_stand_ins_that_are_gone_afterwards(tmp_path):
    text = ("from jax._src.pallas.mosaic.interpret import vector_clock as vc\n"
            "class Semaphore: pass\nclass SharedMemory: clock_module = vc\n")
    loaded = reference.load(str(_tree(tmp_path, text)))
    assert loaded.memory.SharedMemory.clock_module is loaded.clock
    assert not any(name == "jax" or name.startswith("jax.") for name in sys.modules)


def test_a_model_without_shared_memory_is_refused(tmp_path):
    with pytest.raises(reference.ReferenceUnusable, match="no SharedMemory"):
        reference.load(str(_tree(tmp_path, "class Semaphore: pass\n")))
