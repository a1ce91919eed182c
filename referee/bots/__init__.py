"""Bot processes for their whole life: started under their limits and sandbox, lines read and
written with deadlines, stderr drained, the process tree watched and always reaped.  This
layer moves bytes; the protocol they carry is `referee.protocol`'s."""
