"""tf.flags / tf.app.flags and tf.app.run (absl.flags' API)."""

import os
import subprocess
import sys

import pytest

import tensorweave as tf

flags = tf.flags


@pytest.fixture
def fv():
    return flags.FlagValues()


def _define_all(fv):
    flags.DEFINE_string("output_dir", "", "Where to write.", flag_values=fv)
    flags.DEFINE_integer("steps", 10, "Steps.", lower_bound=0, flag_values=fv)
    flags.DEFINE_float("lr", 0.1, "Learning rate.", flag_values=fv)
    flags.DEFINE_boolean("verbose", False, "Talk.", flag_values=fv)
    flags.DEFINE_bool("cache", True, "Cache.", flag_values=fv)
    flags.DEFINE_list("layers", "32,16", "Layer sizes.", flag_values=fv)
    flags.DEFINE_enum("mode", "train", ["train", "eval"], "Mode.", flag_values=fv)
    flags.DEFINE_multi_string("tag", [], "Tags.", flag_values=fv)


def test_defaults_and_parsing(fv):
    _define_all(fv)
    rest = fv(["prog", "--output_dir=/tmp/x", "--steps", "25", "-lr=0.5", "--verbose", "--nocache",
               "--layers=8,4,2", "--mode=eval", "--tag=a", "pos", "--tag", "b", "--", "--not-a-flag"])
    assert rest == ["prog", "pos", "--not-a-flag"]
    assert fv.is_parsed()
    assert (fv.output_dir, fv.steps, fv.lr, fv.verbose, fv.cache) == ("/tmp/x", 25, 0.5, True, False)
    assert fv.layers == ["8", "4", "2"] and fv.mode == "eval" and fv.tag == ["a", "b"]
    assert fv.flag_values_dict()["steps"] == 25
    assert fv["steps"].default == 10 and fv["steps"].present == 1
    fv.unparse_flags()
    fv(["prog"])
    assert (fv.output_dir, fv.steps, fv.layers, fv.tag) == ("", 10, ["32", "16"], [])


def test_boolean_spellings(fv):
    flags.DEFINE_bool("b", None, "b", flag_values=fv)
    for args, value in ((["--b"], True), (["--nob"], False), (["--b=false"], False), (["--b=1"], True),
                        ([], None)):
        fv.unparse_flags()
        fv(["prog"] + args)
        assert fv.b is value


def test_errors(fv):
    _define_all(fv)
    with pytest.raises(flags.UnparsedFlagAccessError, match="Trying to access flag --steps before flags were parsed"):
        fv.steps
    with pytest.raises(flags.DuplicateFlagError, match="The flag 'steps' is defined twice"):
        flags.DEFINE_integer("steps", 1, "again", flag_values=fv)
    with pytest.raises(flags.UnrecognizedFlagError, match="Unknown command line flag 'bogus'"):
        fv(["prog", "--bogus=1"])
    with pytest.raises(flags.IllegalFlagValueError, match="flag --steps=abc"):
        fv(["prog", "--steps=abc"])
    with pytest.raises(flags.IllegalFlagValueError, match="flag --steps=-1: -1 is not a non-negative integer"):
        fv(["prog", "--steps=-1"])
    with pytest.raises(flags.IllegalFlagValueError, match="value should be one of <train|eval>"):
        fv(["prog", "--mode=test"])
    with pytest.raises(flags.IllegalFlagValueError, match="flag --lr: Flag --lr must have a value"):
        fv(["prog", "--lr"])
    with pytest.raises(AttributeError):
        fv.undefined_flag
    with pytest.raises(TypeError, match="argv should be a tuple/list of strings"):
        fv("prog --x")
    assert fv(["prog", "--bogus", "--steps=3"], known_only=True) == ["prog", "--bogus"]
    assert fv.steps == 3


def test_setting_values_and_required_flags(fv):
    flags.DEFINE_string("name", None, "Name.", flag_values=fv)
    holder = flags.DEFINE_integer("n", default_value=4, help="n", flag_values=fv)
    flags.mark_flag_as_required("name", fv)
    with pytest.raises(flags.IllegalFlagValueError, match="flag --name must have a value other than None"):
        fv(["prog"])
    fv(["prog", "--name=x"])
    assert holder.value == 4
    fv.n = 9
    assert fv.n == 9 and holder.value == 9
    assert "--name: Name." in fv.get_help()


def test_global_flags_parse_on_first_access(monkeypatch):
    name = "tw_test_flag_on_access"
    flags.DEFINE_string(name, "default", "A test flag.")
    try:
        monkeypatch.setattr(sys, "argv", ["prog", "--%s=from_argv" % name, "--unknown_to_us=1"])
        flags.FLAGS.unparse_flags()
        assert getattr(flags.FLAGS, name) == "from_argv"
        assert tf.app.flags.FLAGS is flags.FLAGS
    finally:
        delattr(flags.FLAGS, name)
        flags.FLAGS.unparse_flags()


def test_app_run_parses_flags_and_exits_with_main_result(monkeypatch):
    name = "tw_test_app_run"
    tf.app.flags.DEFINE_integer(name, 1, "A test flag.")
    seen = []

    def main(argv):
        seen.append((list(argv), getattr(tf.flags.FLAGS, name)))
        return 3

    try:
        flags.FLAGS.unparse_flags()
        with pytest.raises(SystemExit) as exit_info:
            tf.app.run(main, argv=["prog", "--%s=5" % name, "--other=x", "file.txt"])
        assert exit_info.value.code == 3
        assert seen == [(["prog", "--other=x", "file.txt"], 5)]
        monkeypatch.setattr(sys, "argv", ["prog"])
        flags.FLAGS.unparse_flags()
        with pytest.raises(SystemExit) as exit_info:
            tf.app.run(lambda argv: None)
        assert exit_info.value.code is None
        main_module = sys.modules["__main__"]
        monkeypatch.setattr(main_module, "main", lambda argv: seen.append("from __main__"), raising=False)
        with pytest.raises(SystemExit):
            tf.app.run()
        assert seen[-1] == "from __main__"
    finally:
        delattr(flags.FLAGS, name)
        flags.FLAGS.unparse_flags()


def test_app_run_help_prints_the_flags(capsys):
    name = "tw_test_help_flag"
    flags.DEFINE_float(name, 0.5, "Documented here.")
    try:
        with pytest.raises(SystemExit) as exit_info:
            tf.app.run(lambda argv: 0, argv=["prog", "--help"])
        assert exit_info.value.code == 1
        out = capsys.readouterr().out
        assert "--%s: Documented here." % name in out and "(default: '0.5')" in out
    finally:
        delattr(flags.FLAGS, name)


def test_app_run_bad_flag_value_prints_absl_error_and_exits_1(capsys):
    name = "tw_test_bad_value"
    flags.DEFINE_integer(name, 10, "An integer flag.", lower_bound=0)
    ran = []
    try:
        for value, message in [
                ("abc", "flag --%s=abc: invalid literal for int() with base 10: 'abc'" % name),
                ("-3", "flag --%s=-3: -3 is not a non-negative integer" % name)]:
            flags.FLAGS.unparse_flags()
            with pytest.raises(SystemExit) as exit_info:
                tf.app.run(ran.append, argv=["prog", "--%s=%s" % (name, value)])
            assert exit_info.value.code == 1 and ran == []
            err = capsys.readouterr().err
            assert err == ("FATAL Flags parsing error: %s\nPass --helpshort or --helpfull to see help on flags.\n"
                           % message)
    finally:
        delattr(flags.FLAGS, name)
        flags.FLAGS.unparse_flags()


def test_bad_flag_value_in_a_program_has_no_traceback(tmp_path):
    prog = tmp_path / "prog.py"
    prog.write_text("import tensorweave as tf\n"
                    "tf.flags.DEFINE_integer('steps', 10, 'number of steps')\n"
                    "def main(argv):\n"
                    "    print('steps', tf.flags.FLAGS.steps)\n"
                    "if __name__ == '__main__':\n"
                    "    tf.app.run()\n")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    bad = subprocess.run([sys.executable, str(prog), "--steps=abc"], capture_output=True, text=True, env=env,
                         timeout=120)
    assert bad.returncode == 1 and "Traceback" not in bad.stderr and bad.stdout == ""
    assert bad.stderr.splitlines() == [
        "FATAL Flags parsing error: flag --steps=abc: invalid literal for int() with base 10: 'abc'",
        "Pass --helpshort or --helpfull to see help on flags."]
    good = subprocess.run([sys.executable, str(prog), "--steps=7"], capture_output=True, text=True, env=env,
                          timeout=120)
    assert good.returncode == 0 and good.stdout == "steps 7\n"


@pytest.mark.parametrize("define, bounds, value, message", [
    ("integer", {"lower_bound": 1}, "0", "0 is not a positive integer"),
    ("integer", {"upper_bound": 0}, "2", "2 is not a non-positive integer"),
    ("integer", {"upper_bound": -1}, "0", "0 is not a negative integer"),
    ("integer", {"lower_bound": 2, "upper_bound": 5}, "9", "9 is not an integer in the range [2, 5]"),
    ("integer", {"upper_bound": 5}, "9", "9 is not integer <= 5"),
    ("integer", {"lower_bound": -3}, "-9", "-9 is not integer >= -3"),
    ("float", {"lower_bound": 0}, "-1", "-1.0 is not a non-negative number"),
    ("float", {"lower_bound": 0.5, "upper_bound": 2}, "3", "3.0 is not a number in the range [0.5, 2]"),
    ("float", {"upper_bound": 2}, "3", "3.0 is not number <= 2"),
])
def test_bound_errors_use_absl_words(fv, define, bounds, value, message):
    default = bounds.get("lower_bound", bounds.get("upper_bound"))
    getattr(flags, "DEFINE_" + define)("x", default, "bounded", flag_values=fv, **bounds)
    with pytest.raises(flags.IllegalFlagValueError) as info:
        fv(["prog", "--x=" + value])
    assert str(info.value) == "flag --x=%s: %s" % (value, message)
