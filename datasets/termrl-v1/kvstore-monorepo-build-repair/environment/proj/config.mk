# build configuration
VERSION    = 2.1.0
SOVERSION  = 2
PREFIX    ?= /usr/local
CC        ?= cc
CFLAGS    ?= -O2 -g
CFLAGS    += -Wall -Wextra
CPPFLAGS  += -Iinclude
B          = build
