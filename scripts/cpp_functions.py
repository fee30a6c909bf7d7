"""The function definitions of a C++ source and their lengths, for scripts/check_architecture.py.

Not a parser: comments, string and character literals (raw strings too) and preprocessor lines
are blanked first (newlines kept, so line numbers hold), then a brace matcher walks the text. A
`{` met outside any function opens a namespace or class body (whose members are looked into), a
function body, or anything else (an initializer, an enum); which one is decided by the text since
the previous `;`, `{` or `}` at that level, the "head": a head with `namespace`, `class`, `struct`
or `union` (outside a template's angle brackets) opens a body to look into; a head with a
parenthesis at angle-bracket depth 0 and no `=` before it is a function (a brace inside the head,
a member's brace initializer after a constructor's `:` or a braced argument, belongs to the head);
everything else is skipped whole. Every brace
inside a function body (blocks, lambdas, local classes) belongs to that function.

A function's length counts its lines from the first line of its head (its template line, return
type and signature) to the line of its closing brace, both included.
"""
import re
from dataclasses import dataclass

ACCESS = re.compile(r"^\s*(?:(?:public|private|protected)\s*:(?!:)\s*)+")
OPERATOR = re.compile(r"\boperator\s*(\(\s*\)|\[\s*\]|->\*?|[-+*/%^&|~!=<>,]+|new\b|delete\b)")
CONTAINER = re.compile(r"\b(namespace|class|struct|union)\b")
ATTRIBUTE = re.compile(r"__attribute__\s*\(\(.*?\)\)", re.DOTALL)
INIT_LIST = re.compile(r"\)[\w\s&]*?(?<!:):(?!:)")


@dataclass
class Function:
    name: str
    first_line: int
    last_line: int

    @property
    def lines(self):
        return self.last_line - self.first_line + 1


def blank(text):
    """The text with comments, string and character literals and preprocessor lines replaced by
    spaces (newlines kept)."""
    out = list(text)
    i, n = 0, len(text)
    line_start = True

    def wipe(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if line_start and c == "#":
            j = i
            while j < n and not (text[j] == "\n" and text[j - 1] != "\\"):
                j += 1
            wipe(i, j)
            i = j
            continue
        if c == "\n":
            line_start = True
            i += 1
            continue
        if not c.isspace():
            line_start = False
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            wipe(i, j)
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            wipe(i, j)
            i = j
        elif c == '"':
            j = raw_string_end(text, i) or quoted_end(text, i, '"')
            wipe(i, j)
            i = j
        elif c == "'" and not digit_separator(text, i):
            j = quoted_end(text, i, "'")
            wipe(i, j)
            i = j
        else:
            i += 1
    return "".join(out)


def quoted_end(text, i, quote):
    j = i + 1
    while j < len(text) and text[j] != quote and text[j] != "\n":
        j += 2 if text[j] == "\\" else 1
    return min(j + 1, len(text))


def raw_string_end(text, i):
    """End of a raw string literal whose quote is at i (R"d(...)d"), or None if it is not one."""
    prefix_ok = i >= 2 and (not (text[i - 2].isalnum() or text[i - 2] == "_") or text[i - 2] in "uUL8")
    if i == 0 or text[i - 1] != "R" or not (i == 1 or prefix_ok):
        return None
    open_paren = text.find("(", i)
    delim = text[i + 1:open_paren] if open_paren >= 0 else None
    if delim is None or len(delim) > 16 or any(ch in delim for ch in ' )\\\n"'):
        return None
    closing = ")" + delim + '"'
    end = text.find(closing, open_paren)
    return len(text) if end < 0 else end + len(closing)


def digit_separator(text, i):
    """Whether the quote at i separates digits (1'000'000) rather than opening a character."""
    j = i
    while j > 0 and (text[j - 1].isalnum() or text[j - 1] == "_"):
        j -= 1
    return j < i and text[j].isdigit()


def first_paren(head):
    """Index of the first '(' at angle-bracket depth 0 in a head whose operators are renamed."""
    depth = 0
    for k, c in enumerate(head):
        if c == "<":
            depth += 1
        elif c == ">":
            depth = max(0, depth - 1)
        elif c == "(" and depth == 0:
            return k
    return -1


def past_closing(text, k, opening, closing):
    """The index just past the bracket closing the one opened before `k` (or the text's end)."""
    depth = 1
    while k < len(text) and depth:
        depth += {opening: 1, closing: -1}.get(text[k], 0)
        k += 1
    return k


def without_type_parens(head):
    """The head with `decltype(...)` and `alignas(...)` (balanced) replaced by a word, so that the
    first parenthesis left is the parameter list's."""
    while True:
        m = re.search(r"\b(decltype|alignas)\s*\(", head)
        if not m:
            return head
        head = head[:m.start()] + m.group(1) + "_" + head[past_closing(head, m.end(), "(", ")"):]


def without_template_prefix(head):
    """The head without its leading `template <...>` clauses, GCC attributes and the parentheses
    of decltype and alignas."""
    head = without_type_parens(ATTRIBUTE.sub(" ", head))
    while True:
        m = re.match(r"\s*template\s*<", head)
        if not m:
            return head
        head = head[past_closing(head, m.end(), "<", ">"):]


def classify(head):
    """'container', 'function' or 'other' for the head of a '{' met outside any function."""
    plain = OPERATOR.sub("operator_", without_template_prefix(ACCESS.sub("", head)))
    if re.match(r"\s*extern\s*$", plain):
        return "container"  # extern "C" { (its string is blanked)
    paren = first_paren(plain)
    before = plain if paren < 0 else plain[:paren]
    if CONTAINER.search(before) and not re.search(r"\benum\b", before):
        return "container"
    if plain.count("(") > plain.count(")"):
        return "in-head"  # a braced argument inside the head's parentheses: f(a, {}) or x_(a, {})
    if paren < 0 or "=" in before:
        return "other"
    if INIT_LIST.search(plain[paren:]) and re.search(r"[\w>]\s*$", plain):
        return "in-head"  # x_{a} in a constructor's initializer list
    return "function"


def function_name(head):
    plain = without_template_prefix(ACCESS.sub("", head))
    names = {}

    def keep(m):
        names[f"operator_{len(names)}"] = "operator" + re.sub(r"\s+", "", m.group(1))
        return f"operator_{len(names) - 1}"

    renamed = OPERATOR.sub(keep, plain)
    m = re.search(r"([\w~]+(?:\s*::\s*[\w~]+)*)\s*$", renamed[:first_paren(renamed)])
    name = re.sub(r"\s+", "", m.group(1)) if m else "?"
    for placeholder, operator in names.items():
        name = name.replace(placeholder, operator)
    return name


def functions(text):
    """Every function definition outside another function's body, in the order of the source."""
    code = blank(text)
    found = []
    stack = []  # kinds of the open braces
    head_start = 0
    line = 1
    line_at = {}  # offset of each '{' that opened a function -> its head's first line

    def head_first_line(start, end):
        stripped = ACCESS.sub(lambda m: " " * len(m.group(0)), code[start:end])
        offset = start + len(stripped) - len(stripped.lstrip())
        return code.count("\n", 0, offset) + 1

    for k, c in enumerate(code):
        if c == "\n":
            line += 1
        outside = all(kind == "container" for kind in stack)
        if c == "{":
            if not outside:
                stack.append("inner")
                continue
            kind = classify(code[head_start:k])
            if kind == "function":
                line_at[len(stack)] = (function_name(code[head_start:k]), head_first_line(head_start, k))
            stack.append(kind)
            if kind == "container":
                head_start = k + 1
        elif c == "}":
            if not stack:
                continue  # unbalanced: ignore the stray brace
            kind = stack.pop()
            if kind == "function":
                name, first = line_at.pop(len(stack))
                found.append(Function(name, first, line))
            if all(kind2 == "container" for kind2 in stack) and kind in ("function", "container"):
                head_start = k + 1
        elif c == ";" and outside:
            head_start = k + 1
    return found
