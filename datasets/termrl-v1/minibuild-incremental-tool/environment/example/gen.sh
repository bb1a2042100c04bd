echo "#define ANSWER 42"
