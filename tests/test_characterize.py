"""pycl.characterize and first-argument memoization."""

import warnings

import pytest

import pycl as cl
from pycl import characterize as ch
from pycl.tools import clear_first_arg_caches, first_arg_dependent_memoize


def test_svm_capabilities_match_device(device):
    if device.cl_version < (2, 0):
        assert not ch.has_coarse_grain_buffer_svm(device)
        assert not ch.has_fine_grain_buffer_svm(device)
        assert not ch.has_fine_grain_system_svm(device)
        return
    caps = device.svm_capabilities
    bits = cl.device_svm_capabilities
    assert ch.has_coarse_grain_buffer_svm(device) == bool(caps & bits.COARSE_GRAIN_BUFFER)
    assert ch.has_fine_grain_buffer_svm(device) == bool(caps & bits.FINE_GRAIN_BUFFER)
    assert ch.has_fine_grain_system_svm(device) == bool(caps & bits.FINE_GRAIN_SYSTEM)


def test_every_function_answers(device):
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        options = ch.get_fast_inaccurate_build_options(device)
        assert "-cl-fast-relaxed-math" in options
        simd = ch.get_simd_group_size(device, 4)
        assert simd is None or simd >= 1
        assert ch.has_amd_double_support(device) == ("cl_amd_fp64" in device.extensions.split())
        assert ch.has_struct_arg_count_bug(device) in (False, "apple")
        assert ch.local_memory_access_granularity(device) >= 1
        assert ch.local_memory_bank_count(device) >= 1
        assert ch.simultaneous_work_items_on_local_access(device) >= 1
        assert 0 < ch.usable_local_mem_size(device) <= device.local_mem_size
        nv = ch.nv_compute_capability(device)
        assert nv is None or len(nv) == 2


def test_fallbacks_warn_on_unknown_devices(device):
    if "cl_nv_device_attribute_query" in device.extensions or "cl_amd_device_attribute_query" in device.extensions:
        pytest.skip("%s reports its local memory layout" % device.name)
    with pytest.warns(ch.CLCharacterizationWarning, match="local memory bank count"):
        ch.local_memory_bank_count(device)


def conflicts(banks, width, itemsize, stride_items, items):
    """Brute force: the most distinct words that land in one bank when
    ``items`` work items read words ``i * stride`` apart."""
    per_bank = {}
    for i in range(items):
        word = i * stride_items * itemsize // width
        per_bank.setdefault(word % banks, set()).add(word)
    return max(len(words) for words in per_bank.values())


def test_conflict_analysis_matches_brute_force(device):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        banks = ch.local_memory_bank_count(device)
        width = ch.local_memory_access_granularity(device)
        items = ch.simultaneous_work_items_on_local_access(device)
        for n, padded in ((32, 32), (32, 33), (16, 16), (64, 65)):
            multiplicity, why = ch.why_not_local_access_conflict_free(device, 4, (n, n), (n, padded))
            expected = max(conflicts(banks, width, 4, padded, min(items, n)), conflicts(banks, width, 4, 1, items))
            assert multiplicity == expected
            assert (why is None) == (multiplicity == 1)


def test_first_arg_memoize():
    calls = []

    @first_arg_dependent_memoize
    def square(ctx, x):
        calls.append((ctx, x))
        return x * x

    key = object()
    assert square(key, 3) == 9 and square(key, 3) == 9 and square(key, 4) == 16
    assert calls == [(key, 3), (key, 4)]
    clear_first_arg_caches()
    assert square(key, 3) == 9 and len(calls) == 3
    with pytest.raises(TypeError, match="no keyword arguments"):
        square(key, x=3)


def test_double_and_svm_atomics_follow_device_info(device):
    assert ch.has_double_support(device) == ("cl_khr_fp64" in device.extensions.split())
    if device.cl_version < (2, 0):
        assert not ch.has_fine_grain_buffer_svm_atomics(device)
        assert not ch.has_fine_grain_system_svm_atomics(device)
        return
    caps, bits = device.svm_capabilities, cl.device_svm_capabilities
    atomics = bool(caps & bits.ATOMICS)
    assert ch.has_fine_grain_buffer_svm_atomics(device) == (atomics and bool(caps & bits.FINE_GRAIN_BUFFER))
    assert ch.has_fine_grain_system_svm_atomics(device) == (atomics and bool(caps & bits.FINE_GRAIN_SYSTEM))


def test_pocl_version(device):
    platform = device.platform
    version = ch.get_pocl_version(platform)
    if platform.name != "Portable Computing Language":
        assert version is None
        return
    words = platform.version.split()  # "OpenCL 3.0 PoCL 6.0-rc2 ...", "... PoCL 3.1+debian ..."
    assert words[2].lower() == "pocl"
    major, minor = words[3].split(".")[:2]
    assert version == (int(major), int(minor.split("-")[0].split("+")[0]))


def test_pocl_version_fallback_warns():
    class Odd:
        name, version = "Portable Computing Language", "PoCL, some day"

    with pytest.warns(ch.CLCharacterizationWarning, match="PoCL, some day"):
        assert ch.get_pocl_version(Odd(), fallback_value=(1, 0)) == (1, 0)
    Odd.name = "Another"
    assert ch.get_pocl_version(Odd()) is None
