import tensorweave as tf

# A session config that runs plans on the reference interpreter (compiled plans are compared to it).
INTERPRETER = tf.ConfigProto(experimental=tf.ConfigProto.Experimental(executor_type="INTERPRETER"))
