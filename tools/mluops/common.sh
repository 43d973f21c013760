# What every part of mlusim-mluops uses: messages, failing, paths, lists.

say() { printf '%s\n' "mlusim-mluops: $*"; }
die() { printf '%s\n' "mlusim-mluops: error: $*" >&2; exit 2; }

# The value of option $1 when $2 is present, else a failure naming $1.
need_value() {
  [ $# -ge 2 ] || die "$1 needs a value"
  printf '%s' "$2"
}

# An existing directory as an absolute path.
absolute_dir() {
  [ -d "$1" ] || die "$1 is no directory"
  (CDPATH= cd -- "$1" && pwd)
}

# "a,b c" -> "a b c"
comma_list() { printf '%s' "$1" | tr ',' ' '; }

# Whether word $1 is among the words in $2.
among() {
  case " $2 " in *" $1 "*) return 0 ;; esac
  return 1
}

# The words of $1 that are not in $2.
without() {
  out=""
  for w in $1; do among "$w" "$2" || out="$out $w"; done
  printf '%s' "${out# }"
}

count_words() { set -- $1; printf '%s' $#; }
